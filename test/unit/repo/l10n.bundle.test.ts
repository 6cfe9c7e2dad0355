/**
 * l10n/bundle.l10n.json is what a translator fills: every message the code translates is a key of it, and it keeps
 * no key the code no longer uses. `npm run l10n` rewrites it.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { BUNDLE, ROOT, exportBundle, messages, parse, translatedSources } from '../../l10n/scan';

test('l10n/bundle.l10n.json holds every translated message and no stale key (npm run l10n rewrites it)', () => {
  const bundle = JSON.parse(fs.readFileSync(BUNDLE, 'utf8')) as Record<string, string>;
  const sources = translatedSources();
  const used = new Set(sources.flatMap((s) => messages(s).map((m) => m.text)));
  const missing = sources.flatMap(messages).filter((m) => !(m.text in bundle));
  const stale = Object.keys(bundle).filter((key) => !used.has(key));
  assert.deepEqual(
    missing.map((m) => `${m.file}:${m.line} ${JSON.stringify(m.text)}`),
    [],
    'messages missing from the bundle',
  );
  assert.deepEqual(stale, [], 'keys nothing translates');
  assert.deepEqual(
    Object.entries(bundle).filter(([key, english]) => key !== english),
    [],
    'the English bundle maps each key to itself',
  );
  assert.deepEqual(bundle, exportBundle(sources));
});

test('the package names the bundle folder', () => {
  const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { l10n?: string };
  assert.equal(manifest.l10n, './l10n');
});

test('messages are found in t(), l10n.t(), locale.t(), plural() and *_MESSAGES tables (lists or records), not in other calls', () => {
  const source = parse(
    'src/features/demo.ts',
    [
      "vscode.l10n.t('One {0}', 1);",
      "this.locale.t('Two');",
      "t('Three');",
      "plural(locale, n, '{0} item', '{0} items');",
      "const PAGE_MESSAGES = ['Four', 'Five'] as const;",
      "const SERVICE_MESSAGES: Summaries = { a: ['Six', 'Seven'], b: { c: 'Eight' } };",
      "other('Not a message');",
      't(variable);',
    ].join('\n'),
  );
  assert.deepEqual(
    messages(source).map((m) => m.text),
    ['One {0}', 'Two', 'Three', '{0} item', '{0} items', 'Four', 'Five', 'Six', 'Seven', 'Eight'],
  );
});
