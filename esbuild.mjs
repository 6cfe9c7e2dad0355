// The one build: `node esbuild.mjs [--production] [--watch] [--tests]`.
//   (none)        the development bundles with source maps and the test hooks (npm run build, npm start)
//   --production  minified, no source maps, the test hooks compiled out (vscode:prepublish, the .vsix)
//   --watch       rebuilds on every change, and tsc -b --watch checks the types beside it, until Ctrl+C (npm run watch)
//   --tests       every source and test file, unbundled, into an emptied out/ (tsc -b's out/types/ kept) for node --test and the suites
// TEST_HOOKS is the build flag behind every test seam (src/buildFlags.d.ts): with it false, esbuild drops the
// hidden test commands, the pages' report code and the command ids from the release bundles.
import * as esbuild from 'esbuild';
import { Buffer } from 'node:buffer';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';

const args = new Set(process.argv.slice(2));
const production = args.has('--production');
const watch = args.has('--watch');

/** The rank files the package carries from js-tiktoken: one per distinct table (src/core/tokenizers/tiktoken/ranks.ts, SHARED_RANKS). */
export const RANK_FILES = ['cl100k_base', 'o200k_base', 'p50k_base', 'r50k_base'];

/** The rank files the build writes itself, in the same format: the vocabularies js-tiktoken does not have. */
export const GENERATED_RANK_FILES = { claude: claudeRankFile };

/**
 * Anthropic's published Claude vocabulary (the claude.json of @anthropic-ai/tokenizer, rank for rank) from the
 * `claude` encoding of ai-tokenizer, a devDependency read here and never bundled. ai-tokenizer keeps the tokens that
 * are UTF-8 text as strings and the others as bytes; a rank file lists every rank's bytes in base64, in lines of
 * "! <first rank> <token> <token> …" over consecutive ranks (RankTable.decode).
 */
function claudeRankFile() {
  const encoding = createRequire(import.meta.url)('ai-tokenizer/encoding/claude');
  const byRank = new Map();
  for (const [text, rank] of Object.entries(encoding.stringEncoder)) byRank.set(rank, Buffer.from(text, 'utf8').toString('base64'));
  for (const [bytes, rank] of encoding.binaryEncoder) byRank.set(rank, Buffer.from(bytes).toString('base64'));
  const ranks = [...byRank.keys()].sort((a, b) => a - b);
  const lines = [];
  for (let i = 0; i < ranks.length;) {
    let j = i;
    while (j + 1 < ranks.length && ranks[j + 1] === ranks[j] + 1) j++;
    lines.push(
      `! ${ranks[i]} ${ranks
        .slice(i, j + 1)
        .map((r) => byRank.get(r))
        .join(' ')}`,
    );
    i = j + 1;
  }
  const file = { pat_str: encoding.pat_str, special_tokens: encoding.special_tokens, bpe_ranks: lines.join('\n') };
  return `module.exports = ${JSON.stringify(file)};\n`;
}

/** Writes the generated rank files into `dir`: dist/ranks beside the bundles, or beside tiktoken/ranks.js in the test build. */
function writeGeneratedRanks(dir) {
  fs.mkdirSync(dir, { recursive: true });
  for (const [name, make] of Object.entries(GENERATED_RANK_FILES)) fs.writeFileSync(path.join(dir, `${name}.js`), make());
}

/**
 * undici (the service client's HTTP library, 400 KB) is its own file, required on the first request: the
 * extension's bundle, parsed at every start, stays small for a window that never calls the service.
 */
const undiciApart = {
  name: 'undici-apart',
  setup(build) {
    build.onResolve({ filter: /^undici$/ }, () => ({ path: './undici.js', external: true }));
  },
};

/**
 * @spglib/moyo-wasm's JavaScript (an ES module, the symmetry finder's bindings) is its own file on the desktop,
 * dist/moyo.js, required on the first symmetry search (src/platform/moyo.ts), like undici: activation never parses
 * it. Its .wasm is copied beside it (MOYO_WASM) and read as bytes on that first search.
 */
const moyoApart = {
  name: 'moyo-apart',
  setup(build) {
    build.onResolve({ filter: /^@spglib\/moyo-wasm$/ }, () => ({ path: './moyo.js', external: true }));
  },
};
/** moyo's glue reads import.meta.url only when it is given no bytes; it is always given bytes. */
const noImportMeta = { 'import.meta.url': 'undefined' };
export const MOYO_WASM = 'node_modules/@spglib/moyo-wasm/moyo_wasm_bg.wasm';

/**
 * A test driver only exports functions and constants, so importing it does nothing: told so, esbuild drops an unused
 * one whole, and not only its code (it would keep the module's own require("vscode"), a call it cannot prove pure).
 */
const testOnlyPure = {
  name: 'test-only-pure',
  setup(build) {
    build.onResolve({ filter: /\/(testDriver|paneBench)$/ }, async ({ path: specifier, resolveDir, kind, pluginData }) => {
      if (pluginData === 'resolving') return undefined;
      const resolved = await build.resolve(specifier, { resolveDir, kind, pluginData: 'resolving' });
      return { ...resolved, sideEffects: false };
    });
  },
};

/** The bundles, for release (`production`: minified, no maps, TEST_HOOKS false) or development. */
export function bundles(production) {
  const define = { TEST_HOOKS: String(!production) };
  const plugins = [testOnlyPure];
  const common = { bundle: true, define, minify: production, sourcemap: !production, logLevel: 'warning', plugins };
  return {
    moyo: {
      ...common,
      define: { ...define, ...noImportMeta },
      entryPoints: ['node_modules/@spglib/moyo-wasm/moyo_wasm.js'],
      outfile: 'dist/moyo.js',
      platform: 'node',
      target: 'node20',
      format: 'cjs',
    },
    ranks: {
      entryPoints: RANK_FILES.map((name) => `node_modules/js-tiktoken/dist/ranks/${name}.cjs`),
      outdir: 'dist/ranks',
      logLevel: 'warning',
      // Not minified: the extension reads them as `module.exports = {JSON};` (ranks.ts parseRankModule), and the
      // minifier unquotes the keys; the base64 ranks are nearly all of each file either way.
    },
    node: {
      ...common,
      // The CLI is for development and tests; the package carries the extension, the worker chat templates render
      // in (the status bar's conversation counts and the CLI's) and the built-in service.
      entryPoints: [
        'src/extension.ts',
        'src/features/chat/renderWorker.ts',
        // At dist/'s top, beside moyo.js, which it requires as ./moyo.js like the extension's bundle.
        { in: 'src/platform/symmetryWorker.ts', out: 'symmetryWorker' },
        'src/server/main.ts',
        // Beside main.js, where pool.ts looks for it (as out/src/server/http/ has both).
        { in: 'src/server/http/worker.ts', out: 'server/worker' },
        ...(production ? [] : ['src/cli.ts']),
      ],
      outdir: 'dist',
      outbase: 'src',
      platform: 'node',
      target: 'node20',
      format: 'cjs',
      external: ['vscode'],
      plugins: [...plugins, undiciApart, moyoApart],
    },
    undici: {
      ...common,
      entryPoints: ['node_modules/undici/index.js'],
      outfile: 'dist/undici.js',
      platform: 'node',
      target: 'node20',
      format: 'cjs',
    },
    web: {
      ...common,
      entryPoints: ['src/web/extension.ts'],
      outfile: 'dist/web/extension.js',
      platform: 'browser',
      format: 'cjs',
      target: 'es2022',
      external: ['vscode', 'node:fs', 'node:path'],
      define: { ...define, ...noImportMeta },
    },
    pages: {
      ...common,
      entryPoints: {
        inspector: 'src/webviews/pages/inspector/main.ts',
        structure: 'src/webviews/pages/structure/main.ts',
        results: 'src/webviews/pages/results/main.ts',
        dataset: 'src/webviews/pages/dataset/main.ts',
      },
      outdir: 'media/build',
      // Minified in development too (with source maps): the structure page carries 3Dmol, 2 MB unminified, and a
      // view opens about a second sooner without it.
      minify: true,
      format: 'iife',
      target: 'es2022',
    },
  };
}

/**
 * The test drivers (each view's and feature's testDriver.ts, and paneBench.ts, which only the inspector page's
 * driver imports): registered behind TEST_HOOKS, so a release build drops them with the dead branch.
 */
export const TEST_ONLY = /(^|\/)(testDriver|paneBench)\.ts$/;

/** The test-only modules whose code a build's metafile shows in an output, as "output: input" (none in a release build). */
export function testOnlyCode(metafile) {
  return Object.entries(metafile.outputs).flatMap(([output, { inputs }]) =>
    Object.entries(inputs)
      .filter(([input, { bytesInOutput }]) => TEST_ONLY.test(input) && bytesInOutput > 0)
      .map(([input]) => `${output}: ${input}`),
  );
}

const tests = {
  entryPoints: ['src/**/*.ts', 'test/**/*.ts'],
  outdir: 'out',
  outbase: '.',
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: true,
  define: { TEST_HOOKS: 'true' },
  logLevel: 'warning',
};

async function main() {
  if (args.has('--tests')) {
    // Emptied first: a test file moved or deleted in test/ would otherwise still run from its old place in out/.
    // out/types/ is tsc -b's (declarations and build info): kept, so the next type check stays incremental.
    for (const entry of fs.existsSync('out') ? fs.readdirSync('out') : []) {
      if (entry !== 'types') fs.rmSync(`out/${entry}`, { recursive: true, force: true });
    }
    writeGeneratedRanks('out/src/core/tokenizers/tiktoken/ranks');
    return void (await esbuild.build(tests));
  }
  if (production) for (const dir of ['dist', 'media/build']) fs.rmSync(dir, { recursive: true, force: true });
  writeGeneratedRanks('dist/ranks');
  fs.mkdirSync('dist', { recursive: true });
  fs.copyFileSync(MOYO_WASM, 'dist/moyo_wasm_bg.wasm');
  const options = Object.values(bundles(production)).map((o) => (production ? { ...o, metafile: true } : o));
  if (watch) return void (await watchAll(options));
  const results = await Promise.all(options.map((o) => esbuild.build(o)));
  const leaks = results.flatMap((r) => (r.metafile ? testOnlyCode(r.metafile) : []));
  if (leaks.length)
    throw new Error(`test-only code in the release bundles (a driver imported outside a TEST_HOOKS branch?):\n${leaks.join('\n')}`);
}

/**
 * The bundles rebuilt on every change, with one "[watch] build started" / "[watch] build finished" pair around
 * each round of rebuilds (the background problem matcher in .vscode/tasks.json waits for them), and the type
 * check beside them: tsc -b --watch, its errors in the same terminal. Ctrl+C (or the task's end) stops both.
 */
async function watchAll(options) {
  let building = 0;
  const announce = {
    name: 'announce',
    setup(build) {
      build.onStart(() => void (building++ === 0 && console.log('[watch] build started')));
      build.onEnd(() => void (--building === 0 && console.log('[watch] build finished')));
    },
  };
  const contexts = await Promise.all(options.map((o) => esbuild.context({ ...o, plugins: [...(o.plugins ?? []), announce] })));
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const typecheck = spawn(process.execPath, [tsc, '-b', '--watch', '--preserveWatchOutput'], { stdio: 'inherit' });
  const stop = async () => {
    typecheck.kill();
    await Promise.all(contexts.map((c) => c.dispose()));
    process.exit(0);
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.once(signal, () => void stop());
  typecheck.once('exit', () => void stop());
  await Promise.all(contexts.map((c) => c.watch()));
}

// Run as a script; imported (the rank-file test reads RANK_FILES), it builds nothing.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
