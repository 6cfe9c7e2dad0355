/**
 * docs/architecture.md's code map stays true: every path it names exists, and every folder under src/ is in it, as an entry
 * of its own or named (as a word) in the description of its nearest ancestor's entry.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { test } from 'node:test';

const ROOT = join(__dirname, '..', '..', '..', '..');

interface Entry {
  path: string;
  /** The entry's line and its wrapped description lines. */
  text: string;
}

/** Entries start within the first few columns; deeper lines continue the description above them. */
const MAX_ENTRY_INDENT = 6;
const ENTRY = /^( *)([\w.@-]+\/?(?:, [\w.@-]+\/?)*)(?: {2,}|$)/;

function codeMap(): Entry[] {
  const architecture = readFileSync(join(ROOT, 'docs', 'architecture.md'), 'utf8');
  const section = architecture.slice(architecture.indexOf('## Code map'));
  const block = /```\n([\s\S]*?)```/.exec(section)?.[1];
  assert.ok(block, 'docs/architecture.md has a "## Code map" section with a fenced block');
  const entries: Entry[] = [];
  const parents: { indent: number; dir: string }[] = [];
  for (const line of block.split('\n')) {
    const m = ENTRY.exec(line);
    if (!m || m[1]!.length > MAX_ENTRY_INDENT) {
      if (entries.length) entries[entries.length - 1]!.text += `\n${line}`;
      continue;
    }
    const indent = m[1]!.length;
    while (parents.length && parents[parents.length - 1]!.indent >= indent) parents.pop();
    const base = parents[parents.length - 1]?.dir ?? '';
    for (const name of m[2]!.split(', ')) {
      const path = posix.join(base, name); // keeps a folder's trailing slash
      entries.push({ path, text: line });
      if (name.endsWith('/')) parents.push({ indent, dir: path });
    }
  }
  return entries;
}

function folders(dir: string): string[] {
  const out: string[] = [];
  for (const item of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    if (!item.isDirectory()) continue;
    const path = `${dir}${item.name}/`;
    out.push(path, ...folders(path));
  }
  return out;
}

test('every path the code map names exists', () => {
  const missing = codeMap()
    .map((e) => e.path)
    .filter((path) => !existsSync(join(ROOT, path)));
  assert.deepEqual(missing, [], "paths in docs/architecture.md's code map that do not exist");
});

test('every folder under src/ is in the code map', () => {
  const entries = codeMap();
  const named = new Set(entries.map((e) => e.path));
  const unnamed = folders('src/').filter((folder) => {
    if (named.has(folder)) return false;
    let ancestor = posix.dirname(folder.slice(0, -1)) + '/';
    while (!named.has(ancestor) && ancestor !== './') ancestor = posix.dirname(ancestor.slice(0, -1)) + '/';
    const word = new RegExp(`(^|[^\\w])${posix.basename(folder)}(/|[^\\w/]|$)`);
    return !entries.some((e) => e.path === ancestor && word.test(e.text.replace(/^ *\S+/, '')));
  });
  assert.deepEqual(unnamed, [], "folders of src/ that docs/architecture.md's code map leaves out");
});

/** Paths in a comment: `a/b.ts`, `b.ts`, `./b` (a sibling module). */
const PATH_IN_COMMENT = /(?<![\w/.@-])((?:\.{1,2}\/)?(?:[\w-]+\/)*[\w-]+\.(?:ts|mjs))\b|(?<![\w/.])(\.\/[\w-]+)\b/g;

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((item) =>
    item.isDirectory() ? sources(`${dir}${item.name}/`) : item.name.endsWith('.ts') ? [`${dir}${item.name}`] : [],
  );
}

/** Whether a path named in `file`'s comments is a file: beside it, from src/ or the root, or (a bare or partial path) anywhere in src/. */
function resolves(file: string, ref: string, all: readonly string[]): boolean {
  const relative = posix.join(posix.dirname(file), ref);
  if (ref.startsWith('.')) return [relative, `${relative}/index.ts`].some((p) => existsSync(join(ROOT, p)));
  if ([relative, `src/${ref}`, ref].some((p) => existsSync(join(ROOT, p)))) return true;
  return all.some((path) => path.endsWith(`/${ref}`));
}

test('every source file a comment in src/ names exists (headers that cite moved files)', () => {
  const all = sources('src/');
  const stale: string[] = [];
  for (const file of all) {
    readFileSync(join(ROOT, file), 'utf8')
      .split('\n')
      .forEach((line, i) => {
        const text = line.trim();
        if (!/^(\/\/|\/?\*)/.test(text)) return;
        for (const m of text.matchAll(PATH_IN_COMMENT)) {
          const ref = m[1] ?? `${m[2]}.ts`;
          if (!resolves(file, ref, all) && ref !== 'src/a.ts') stale.push(`${file}:${i + 1}: ${ref}`);
        }
      });
  }
  assert.deepEqual(stale, [], 'comments naming files that do not exist');
});
