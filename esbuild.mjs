// The one build: `node esbuild.mjs [--production] [--watch] [--tests]`.
//   (none)        the development bundles with source maps and the test hooks (npm run build, npm start)
//   --production  minified, no source maps, the test hooks compiled out (vscode:prepublish, the .vsix)
//   --watch       rebuilds on every change until Ctrl+C (npm run watch)
//   --tests       every source and test file, unbundled, into out/ for node --test and the extension-host suites
// TEST_HOOKS is the build flag behind every test seam (src/buildFlags.d.ts): with it false, esbuild drops the
// hidden test commands, the pages' report code and the command ids from the release bundles.
import * as esbuild from 'esbuild';
import * as fs from 'node:fs';
import { pathToFileURL } from 'node:url';

const args = new Set(process.argv.slice(2));
const production = args.has('--production');
const watch = args.has('--watch');
const define = { TEST_HOOKS: String(!production) };
const common = { bundle: true, define, minify: production, sourcemap: !production, logLevel: 'warning' };

/** The rank files the package carries: one per distinct table (src/core/tokenizers/load.ts, SHARED_RANKS). */
export const RANK_FILES = ['cl100k_base', 'o200k_base', 'p50k_base', 'r50k_base'];

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

const builds = {
  ranks: {
    entryPoints: RANK_FILES.map((name) => `node_modules/js-tiktoken/dist/ranks/${name}.cjs`),
    outdir: 'dist/ranks',
    logLevel: 'warning',
    minify: production,
  },
  node: {
    ...common,
    // The CLI is for development and tests; the package carries the extension and the built-in service.
    entryPoints: ['src/extension.ts', 'src/server/main.ts', 'src/server/worker.ts', ...(production ? [] : ['src/cli.ts'])],
    outdir: 'dist',
    outbase: 'src',
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    external: ['vscode'],
    plugins: [undiciApart],
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
  },
  pages: {
    ...common,
    entryPoints: {
      inspector: 'src/webviews/pages/inspector/main.ts',
      structure: 'src/webviews/pages/structure/main.ts',
      results: 'src/webviews/pages/results/main.ts',
    },
    outdir: 'media/build',
    format: 'iife',
    target: 'es2022',
  },
};

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
  if (args.has('--tests')) return void (await esbuild.build(tests));
  if (production) for (const dir of ['dist', 'media/build']) fs.rmSync(dir, { recursive: true, force: true });
  const options = Object.values(builds);
  if (!watch) return void (await Promise.all(options.map((o) => esbuild.build(o))));
  const contexts = await Promise.all(options.map((o) => esbuild.context(o)));
  await Promise.all(contexts.map((c) => c.watch()));
  console.log('[esbuild] watching src/ (Ctrl+C stops)');
}

// Run as a script; imported (the rank-file test reads RANK_FILES), it builds nothing.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
