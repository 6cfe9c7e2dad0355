/**
 * What a published .vsix may contain. An allow-list (anything not listed is "unexpected"), plus
 * named reasons for what must never ship, so a failure says why. Pure: checkVsix.ts reads the zip.
 */
import { createHash } from 'node:crypto';

export interface VsixEntry {
  /** Path inside the zip, e.g. `extension/dist/extension.js`. */
  name: string;
  data: Buffer;
}

export interface VsixExpectations {
  /** Rank files the loader reads (src/core/tokenizers/tiktoken/ranks.ts shippedRankFiles). */
  rankFiles: readonly string[];
  /** The manifest's `icon`, relative to the extension root. */
  icon?: string;
  /** The whole .vsix may not be larger than this. */
  maxBytes: number;
}

const FORBIDDEN: [RegExp, string][] = [
  [/\.map$/, 'source map'],
  [/(^|\/)node_modules\//, 'node_modules'],
  [/(^|\/)\.vscode-test\//, 'test cache (.vscode-test)'],
  [/^extension\/(test|out)\//, 'tests or test build (test/, out/)'],
  [/^extension\/src\//, 'TypeScript sources (src/)'],
  [
    /^extension\/dist\/server\/(?!(main|worker)\.js$)/,
    'reference server sources or maps (only dist/server/main.js and worker.js ship, the built-in local service)',
  ],
  [/^extension\/dist\/cli\.js$/, 'command-line tool (dist/cli.js; not shipped, see docs/architecture.md)'],
  [/fixtures?\//, 'test fixtures'],
  [/\.test\.js$|(^|\/)suite\//, 'tests'],
  [/\.ts$/, 'TypeScript source'],
  [/(^|\/)\.(git|vscode|github|ci)\//, 'repository metadata'],
  [/\.vsix$/, 'a nested .vsix'],
];

/**
 * What every package must carry: the manifest and documents, both entries, the service client's library, the
 * built-in service, and the symmetry finder (moyo's bindings and the worker it searches on for the desktop, its .wasm for both hosts).
 */
const REQUIRED = [
  'extension/package.json',
  'extension/readme.md',
  'extension/changelog.md',
  'extension/LICENSE.txt',
  'extension/dist/extension.js',
  'extension/dist/features/chat/renderWorker.js',
  'extension/dist/symmetryWorker.js',
  'extension/dist/undici.js',
  'extension/dist/moyo.js',
  'extension/dist/moyo_wasm_bg.wasm',
  'extension/dist/web/extension.js',
  'extension/dist/server/main.js',
  'extension/dist/server/worker.js',
];

/** Everything that may ship, each file named or patterned narrowly. */
function allowed(name: string, exp: VsixExpectations): boolean {
  const fixed = new Set([
    '[Content_Types].xml',
    'extension.vsixmanifest',
    ...REQUIRED,
    ...exp.rankFiles.map((r) => `extension/dist/ranks/${r}.js`),
    ...(exp.icon ? [`extension/${exp.icon}`] : []),
  ]);
  return (
    fixed.has(name) ||
    /^extension\/media\/[\w-]+\.css$/.test(name) ||
    /^extension\/media\/build\/[\w-]+\.js$/.test(name) ||
    /^extension\/media\/languages\/[\w.-]+\.json$/.test(name) ||
    /^extension\/package\.nls(\.[\w-]+)?\.json$/.test(name) ||
    /^extension\/l10n\/bundle\.l10n(\.[\w-]+)?\.json$/.test(name)
  );
}

/** Problems with the package, one line each; empty when it is fit to publish. */
export function checkVsix(entries: readonly VsixEntry[], exp: VsixExpectations, vsixBytes: number): string[] {
  const problems: string[] = [];
  const names = new Set(entries.map((e) => e.name));
  for (const { name } of entries) {
    const forbidden = FORBIDDEN.find(([re]) => re.test(name));
    if (forbidden) problems.push(`${name}: ${forbidden[1]} must not ship`);
    else if (!allowed(name, exp)) problems.push(`${name}: unexpected file (add it to test/package/vsixRules.ts if it belongs)`);
  }
  const required = [
    ...REQUIRED,
    ...exp.rankFiles.map((r) => `extension/dist/ranks/${r}.js`),
    ...(exp.icon ? [`extension/${exp.icon}`] : []),
  ];
  for (const name of required) if (!names.has(name)) problems.push(`${name}: missing`);
  if (!exp.icon) problems.push('package.json has no icon');
  problems.push(...duplicates(entries), ...sourceMapComments(entries), ...testSeams(entries));
  if (vsixBytes > exp.maxBytes) problems.push(`the .vsix is ${vsixBytes} bytes, over the budget of ${exp.maxBytes}`);
  return problems;
}

/** The same bytes twice (the rank files once were): one of them is dead weight. */
function duplicates(entries: readonly VsixEntry[]): string[] {
  const seen = new Map<string, string>();
  const out: string[] = [];
  for (const { name, data } of entries) {
    if (data.length < 1024) continue; // tiny look-alikes (empty JSON) are not worth a failure
    const hash = createHash('sha256').update(data).digest('hex');
    const first = seen.get(hash);
    if (first) out.push(`${name}: same content as ${first}`);
    else seen.set(hash, name);
  }
  return out;
}

/**
 * What only tests use, compiled out of release bundles by TEST_HOOKS (esbuild.mjs): its traces in a shipped script.
 * The hidden commands' ids (the host drivers), the pages' test mode, and a field only each page's driver reports.
 */
export const TEST_SEAM_TRACES = /tokenLens\.\w+\.test\b|data-test-mode|sinceReadyMs|firstAtom|extraKeys|\bplotted:/;

function testSeams(entries: readonly VsixEntry[]): string[] {
  return entries
    .filter((e) => e.name.endsWith('.js') && TEST_SEAM_TRACES.test(e.data.toString('latin1')))
    .map((e) => `${e.name}: holds test hooks (${TEST_SEAM_TRACES.exec(e.data.toString('latin1'))![0]}); package with vscode:prepublish`);
}

/** A bundle that still points at a .map the package does not carry, i.e. a development build. */
function sourceMapComments(entries: readonly VsixEntry[]): string[] {
  return entries
    .filter((e) => e.name.endsWith('.js') && /\n\/\/# sourceMappingURL=/.test(e.data.subarray(-4096).toString('latin1')))
    .map((e) => `${e.name}: development build (sourceMappingURL comment); package with vscode:prepublish`);
}
