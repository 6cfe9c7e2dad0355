// Lint: typescript-eslint's recommended rules, with type information for the promise rules that catch
// a rejection nobody handles (the editor must never see an unhandled one).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';

/**
 * The layers (CONTRIBUTING, "Code map"): each may import only those below it. The compiler keeps vscode, Node
 * and the DOM out of the layers that must not have them (each has its own tsconfig); these rules keep the
 * direction of the imports between folders. Cycles, between modules (type imports included) and between folders, are
 * test/unit/repo/architecture.test.ts's: it reads every import once, where import-x/no-cycle took a fifth of the lint.
 */
const NODE = ['node:*', 'fs', 'path', 'os', 'http', 'https', 'net', 'child_process', 'worker_threads', 'crypto', 'undici'];
const zone = (target, from, message) => ({ target: `./src/${target}`, from: from.map((f) => `./src/${f}`), message });
const ROOT = ['wiring.ts', 'extension.ts', 'materials.ts', 'materialsLoader.ts', 'api.ts', 'cli.ts', 'web'];
const ZONES = [
  zone('core', ['platform', 'features', 'webviews', 'runs', 'server', ...ROOT], 'The core is pure: it imports only the core.'),
  zone(
    'server',
    ['platform', 'features', 'webviews', 'runs', ...ROOT],
    'The server imports only the core and Node: it runs without the editor.',
  ),
  zone(
    'webviews/pages',
    ['platform', 'features', 'runs', 'server', ...ROOT],
    "A webview page runs in the webview sandbox: the core, its view's pure modules and pages/ only.",
  ),
  zone(
    'platform',
    ['features', 'webviews', 'runs', 'server', ...ROOT],
    'platform/ holds the editor helpers every feature may use: it imports only the core.',
  ),
  zone(
    'features',
    ['webviews', 'runs', 'server', ...ROOT],
    'A feature imports the core, platform/ and other features, never the views, the runs or the server.',
  ),
  zone(
    'webviews',
    ['features', 'runs', 'server', ...ROOT],
    'A view host imports the core, platform/ and webviews/: the runs and features open views, not the other way.',
  ),
  zone('runs', ['server', ...ROOT], 'The runs talk to the service through its client, never to the reference server.'),
];
const noEditorApi = (files, also, why) => ({
  files,
  rules: { 'no-restricted-imports': ['error', { patterns: [{ group: ['vscode', ...also], message: why }] }] },
});

export default tseslint.config(
  { ignores: ['dist/', 'out/', 'media/build/', 'node_modules/', '.vscode-test/', 'test-results/', '*.vsix'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    // The build script and this config run on Node.
    files: ['*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
  {
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          // node:test's test() returns a promise that the runner itself awaits.
          allowForKnownSafeCalls: [{ from: 'package', package: 'node:test', name: ['test', 'describe', 'it', 'suite'] }],
        },
      ],
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      // Rank files and benchmark libraries are loaded on demand with require(), on purpose.
      '@typescript-eslint/no-require-imports': 'off',
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      // A variable a closure reads before its one assignment (a cleanup handler) stays `let`.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
    },
  },
  {
    // With noUncheckedIndexedAccess (tsconfig.base.json) an index may be missing: a `!` says this one cannot be,
    // and this rule takes away every `!` or `as` the compiler does not need.
    files: ['src/**/*.ts', 'test/**/*.ts'],
    rules: { '@typescript-eslint/no-unnecessary-type-assertion': 'error' },
  },
  {
    // Imports first, in every file: what a module depends on is the first thing it says.
    files: ['**/*.ts', '**/*.mjs'],
    plugins: { 'import-x': importX },
    rules: { 'import-x/first': 'error' },
  },
  {
    // Outside text reaches notifications only through platform/notify.ts, which shows it as plain text.
    files: ['src/**/*.ts'],
    ignores: ['src/platform/notify.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'MemberExpression[property.name=/^show(Error|Warning|Information)Message$/]',
          message:
            'Use notify.error/warning/info from src/platform/notify.ts: it shows outside text as text, never as a link or a command.',
        },
      ],
    },
  },
  noEditorApi(
    ['src/core/**/*.ts', 'src/webviews/pages/**/*.ts'],
    NODE,
    'The core and the pages run in every host and in the webview sandbox: no vscode, no Node.',
  ),
  noEditorApi(['src/server/**/*.ts'], [], 'The server runs without the editor.'),
  {
    files: ['src/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [importX.createNodeResolver({ extensions: ['.ts', '.d.ts', '.js'] })],
      'import-x/extensions': ['.ts'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: ZONES }],
    },
  },
  {
    // Tests read JSON answers field by field; typing each one would only restate the assertions.
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
