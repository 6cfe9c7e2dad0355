/**
 * The folders of src/ depend on each other in one direction only. ESLint keeps the layers (import-x's zones)
 * and module cycles out; this keeps cycles between folders of one layer out too (features/a → features/b →
 * features/a), which neither rule sees.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';

const SRC = path.resolve(__dirname, '..', '..', '..', '..', 'src');

/** A file's folder: two levels under src/ (core/poscar, webviews/pages/results) or one (runs, server/physics → server). */
function folderOf(file: string): string {
  const parts = path.relative(SRC, file).split(path.sep);
  if (parts.length === 1) return '.';
  if (parts[0] === 'webviews' && parts[1] === 'pages') return parts.slice(0, 3).join('/');
  return ['core', 'features', 'webviews'].includes(parts[0]!) && parts.length > 2 ? `${parts[0]}/${parts[1]}` : parts[0]!;
}

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    return e.isDirectory() ? sourceFiles(full) : e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [full] : [];
  });
}

function resolve(from: string, specifier: string): string | undefined {
  const base = path.resolve(path.dirname(from), specifier);
  return [`${base}.ts`, path.join(base, 'index.ts')].find((f) => fs.existsSync(f));
}

/** The graph of relative imports between src/'s files, each file named by `nodeOf` (its folder, or itself); `import type` counts. */
function importGraph(nodeOf: (file: string) => string): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of sourceFiles(SRC)) {
    const from = nodeOf(file);
    const edges = graph.get(from) ?? graph.set(from, new Set()).get(from)!;
    for (const { fileName } of ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true).importedFiles) {
      const target = fileName.startsWith('.') ? resolve(file, fileName) : undefined;
      if (target && nodeOf(target) !== from) edges.add(nodeOf(target));
    }
  }
  return graph;
}

const folderGraph = (): Map<string, Set<string>> => importGraph(folderOf);

/** A cycle through a graph, as a path, or undefined (depth-first search with colours). */
function findCycle(graph: Map<string, Set<string>>): string[] | undefined {
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string): string[] | undefined => {
    if (state.get(node) === 'done') return undefined;
    if (state.get(node) === 'open') return [...stack.slice(stack.indexOf(node)), node];
    state.set(node, 'open');
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    stack.pop();
    state.set(node, 'done');
    return undefined;
  };
  for (const node of graph.keys()) {
    const cycle = visit(node);
    if (cycle) return cycle;
  }
  return undefined;
}

test('no two folders of src/ depend on each other, directly or through others', () => {
  const graph = folderGraph();
  assert.ok(graph.size > 20 && graph.get('runs')?.has('core/runs'), `the graph was read: ${[...graph.keys()].join(', ')}`);
  const cycle = findCycle(graph);
  assert.equal(cycle, undefined, `a cycle between folders: ${cycle?.join(' → ')}`);
});

test('no two modules of src/ import each other, directly or through others, type imports included', () => {
  const graph = importGraph((file) => path.relative(SRC, file));
  assert.ok(graph.get('features/statusBar/feature.ts')?.has('features/statusBar/commands.ts'), 'the graph was read');
  const cycle = findCycle(graph);
  assert.equal(cycle, undefined, `a cycle between modules: ${cycle?.join(' → ')}`);
});

test('the cycle check finds a ring it is given', () => {
  const ring = new Map([
    ['a', new Set(['b'])],
    ['b', new Set(['c'])],
    ['c', new Set(['a'])],
    ['d', new Set(['a'])],
  ]);
  assert.deepEqual(findCycle(ring), ['a', 'b', 'c', 'a']);
  assert.equal(
    findCycle(
      new Map([
        ['a', new Set(['b'])],
        ['b', new Set<string>()],
      ]),
    ),
    undefined,
  );
});

test('each layer has its own compiler settings: the core and the pages without vscode or Node, the edge without the DOM', () => {
  const config = (dir: string) =>
    ts.getParsedCommandLineOfConfigFile(
      path.join(SRC, dir, 'tsconfig.json'),
      {},
      { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
    )!.options;
  const core = config('core');
  const pages = config('webviews/pages');
  const edge = config('.');
  const server = config('server');
  assert.deepEqual(core.types, []);
  assert.deepEqual(pages.types, []);
  assert.ok(!core.lib!.some((l) => /dom/i.test(l)) && !edge.lib!.some((l) => /dom/i.test(l)) && !server.lib!.some((l) => /dom/i.test(l)));
  assert.ok(pages.lib!.some((l) => /dom/i.test(l)));
  assert.deepEqual(server.types, ['node']);
});

/** Small functions, kept: none in src/ is longer than this many lines (the longest today is about 72). */
const MAX_FUNCTION_LINES = 80;

test(`no function in src/ is longer than ${MAX_FUNCTION_LINES} lines`, () => {
  const long: string[] = [];
  for (const file of sourceFiles(SRC)) {
    const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true);
    const visit = (node: ts.Node): void => {
      if (ts.isFunctionLike(node) && 'body' in node && node.body) {
        const lines = source.getLineAndCharacterOfPosition(node.end).line - source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
        if (lines > MAX_FUNCTION_LINES)
          long.push(`${path.relative(SRC, file)}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1} (${lines} lines)`);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  assert.deepEqual(long, []);
});

/** The packages a folder's files import by name (not node: built-ins, not vscode). */
function packagesImported(dir: string): Set<string> {
  const names = new Set<string>();
  for (const file of sourceFiles(dir)) {
    for (const { fileName } of ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true).importedFiles) {
      if (fileName.startsWith('.') || fileName.startsWith('node:') || fileName === 'vscode') continue;
      names.add(fileName.startsWith('@') ? fileName.split('/').slice(0, 2).join('/') : fileName.split('/')[0]!);
    }
  }
  return names;
}

test('the server declares its own dependencies (src/server/package.json), and the extension does not carry them', () => {
  const server = JSON.parse(fs.readFileSync(path.join(SRC, 'server', 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  const root = JSON.parse(fs.readFileSync(path.join(SRC, '..', 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
    workspaces: string[];
  };
  const serverOnly = [...packagesImported(path.join(SRC, 'server'))];
  assert.ok(serverOnly.includes('ml-matrix'), serverOnly.join());
  for (const name of serverOnly) assert.ok(name in server.dependencies, `src/server imports ${name}, not in its package.json`);
  for (const name of Object.keys(server.dependencies))
    assert.ok(!(name in root.dependencies), `${name} is the server's, not the extension's`);
  assert.deepEqual(root.workspaces, ['src/server']);
});
