/**
 * The documents stay what a newcomer can trust: README (the Marketplace page) fits five minutes of reading, every
 * relative link in README, CONTRIBUTING and docs/ reaches a file (and its #anchor a heading of that file), every path
 * they name in code (`src/…`, `test/…`) exists, and every page of docs/ is reachable from README or CONTRIBUTING.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { test } from 'node:test';

const ROOT = join(__dirname, '..', '..', '..', '..');
const README_MAX_WORDS = 1_600;

const read = (file: string): string => readFileSync(join(ROOT, file), 'utf8');
const docsPages = (): string[] =>
  readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`);
const documents = (): string[] => ['README.md', 'CONTRIBUTING.md', ...docsPages()];

/** The text without fenced blocks and code spans, where `[x](y)` is an example, not a link. */
function prose(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
}

/** Every link and image target written `[text](target)`, with its title (`"…"`) dropped. */
function targets(markdown: string): string[] {
  return [...prose(markdown).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]!);
}

const isRelative = (target: string): boolean => !/^[a-z][\w+.-]*:/i.test(target);

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const [, heading] of markdown.replace(/^```[\s\S]*?^```/gm, '').matchAll(/^#{1,6}[ \t]+(.+?)[ \t]*#*[ \t]*$/gm)) {
    const base = heading!
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n ? `${base}-${n}` : base);
  }
  return out;
}

/** What a relative link of `from` points to (a path from the root), and its anchor. */
function resolveLink(from: string, target: string): { file: string; anchor?: string } {
  const [path, anchor] = target.split('#', 2) as [string, string | undefined];
  const file = path ? normalize(join(dirname(from), decodeURIComponent(path))).replace(/\\/g, '/') : from;
  return anchor === undefined ? { file } : { file, anchor };
}

test(`README is at most ${README_MAX_WORDS} words (as wc -w counts them)`, () => {
  const words = read('README.md').split(/\s+/).filter(Boolean).length;
  assert.ok(words <= README_MAX_WORDS, `README.md has ${words} words; move the detail to a page of docs/`);
});

test('every relative link in README, CONTRIBUTING and docs/ reaches a file, and its #anchor a heading there', () => {
  const broken: string[] = [];
  for (const from of documents()) {
    for (const target of targets(read(from)).filter(isRelative)) {
      const { file, anchor } = resolveLink(from, target);
      if (relative(ROOT, join(ROOT, file)).startsWith('..') || !existsSync(join(ROOT, file))) broken.push(`${from}: ${target}`);
      else if (anchor !== undefined && file.endsWith('.md') && !anchors(read(file)).has(anchor))
        broken.push(`${from}: ${target} (no such heading)`);
    }
  }
  assert.deepEqual(broken, [], 'links that lead nowhere');
});

/** Repository paths the documents name in code spans: `src/…`, `test/…`, `docs/…`, `.ci/…` (not patterns such as `read*.ts`). */
function namedPaths(markdown: string): string[] {
  return [...markdown.replace(/^```[\s\S]*?^```/gm, '').matchAll(/`((?:src|test|docs|\.ci)\/[^`\s*<>]+)`/g)].map((m) => m[1]!);
}

test('every repository path README, CONTRIBUTING and docs/ name exists (a moved file leaves no stale mention)', () => {
  const stale = documents().flatMap((from) =>
    namedPaths(read(from))
      .filter((path) => !existsSync(join(ROOT, path)))
      .map((path) => `${from}: ${path}`),
  );
  assert.deepEqual(stale, [], 'paths named in the documents that do not exist');
});

test('every page of docs/ is linked from README or CONTRIBUTING', () => {
  const linked = new Set(
    ['README.md', 'CONTRIBUTING.md'].flatMap((from) =>
      targets(read(from))
        .filter(isRelative)
        .map((target) => resolveLink(from, target).file),
    ),
  );
  assert.deepEqual(
    docsPages().filter((page) => !linked.has(page)),
    [],
    'pages of docs/ that neither README nor CONTRIBUTING links to',
  );
});

test('the anchors are GitHub’s, and a broken link is found (the checks can fail)', () => {
  assert.deepEqual(
    [
      ...anchors(
        '# Reference calculations (the reference server’s structure endpoints)\n## Code map\n## Code map\n### `npm start`\n```\n# not a heading\n```',
      ),
    ],
    ['reference-calculations-the-reference-servers-structure-endpoints', 'code-map', 'code-map-1', 'npm-start'],
  );
  assert.deepEqual(targets('see [a](docs/a.md#x) and `[b](command:c)` and ![i](media/i.png "title")'), ['docs/a.md#x', 'media/i.png']);
  assert.deepEqual(resolveLink('docs/speed.md', '../README.md#speed'), { file: 'README.md', anchor: 'speed' });
  assert.deepEqual(namedPaths('`src/core/a.ts` and `src/webviews/results/read*.ts` and `npm test`'), ['src/core/a.ts']);
});
