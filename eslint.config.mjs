// Lint: typescript-eslint's recommended rules, with type information for the promise rules that catch
// a rejection nobody handles (the editor must never see an unhandled one).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'out/', 'media/build/', 'node_modules/', '.vscode-test/', 'test-results/', '*.vsix'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': ['error', {
        // node:test's test() returns a promise that the runner itself awaits.
        allowForKnownSafeCalls: [{ from: 'package', package: 'node:test', name: ['test', 'describe', 'it', 'suite'] }],
      }],
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', ignoreRestSiblings: true }],
      // Rank files and benchmark libraries are loaded on demand with require(), on purpose.
      '@typescript-eslint/no-require-imports': 'off',
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      // A variable a closure reads before its one assignment (a cleanup handler) stays `let`.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
    },
  },
  {
    // Outside text reaches notifications only through util/notify.ts, which shows it as plain text.
    files: ['src/**/*.ts'],
    ignores: ['src/platform/notify.ts'],
    rules: {
      'no-restricted-syntax': ['error', {
        selector: 'MemberExpression[property.name=/^show(Error|Warning|Information)Message$/]',
        message: 'Use notify.error/warning/info from src/platform/notify.ts: it shows outside text as text, never as a link or a command.',
      }],
    },
  },
  {
    // Tests read JSON answers field by field; typing each one would only restate the assertions.
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
