/** The reference server's HTML pages: the index of applications and one page per application. */
import { APPS } from '../../core/applications/catalog';

export function unique<T>(value: T, index: number, all: T[]): boolean {
  return all.indexOf(value) === index;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

function page(title: string, body: string): string {
  return (
    `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>` +
    '<style>body{font-family:system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem}code{background:#f3f3f3;padding:0 .2em}</style>' +
    `</head><body>${body}</body></html>\n`
  );
}

export function indexPage(): string {
  const items = APPS.map((a) => `<li><a href="/${a.name}">${escapeHtml(a.title)}</a> <code>/${a.name}</code></li>`).join('');
  return page('Token Lens reference server', `<h1>Token Lens reference server</h1><p>Applications:</p><ul>${items}</ul>`);
}

export function appPage(app: { name: string; title: string; operations: string[] }): string {
  const ops = ['search', 'compute', ...app.operations].filter(unique);
  const endpoints = ops.map((o) => `<li><code>POST /${app.name}/${o}</code></li>`).join('');
  return page(
    `${app.title} — reference server`,
    `<h1>${escapeHtml(app.title)}</h1><p>Application <code>${app.name}</code> of the Token Lens reference server.</p>` +
      `<ul>${endpoints}<li><code>GET /${app.name}/detail/{id}</code></li></ul>` +
      '<p>POST endpoints need <code>Authorization: Bearer &lt;API key&gt;</code> and a JSON body.</p>',
  );
}
