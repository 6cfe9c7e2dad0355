/**
 * A translation applies: a bundle a translator filled (keys from l10n/bundle.l10n.json) translates a core message
 * through the Locale the extension builds, and a page's plot through the page's t (bundleTranslate, as pages/bridge.ts).
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { test } from 'node:test';
import { statusText, summarize } from '../../../src/core/counts/summary';
import { bundleTranslate, makeLocale, readTranslations } from '../../../src/core/util/locale';
import type { ResultView } from '../../../src/webviews/results/protocol';
import { plotsOf } from '../../../src/webviews/results/plots';
import { BUNDLE } from '../../l10n/scan';

/** What a German translator would write in l10n/bundle.l10n.de.json (a few entries). */
const GERMAN = {
  '{0} tokens': '{0} Token',
  'Energy per step': 'Energie pro Schritt',
  Step: 'Schritt',
};

test("the fake translation's keys are the English bundle's", () => {
  const english = JSON.parse(fs.readFileSync(BUNDLE, 'utf8')) as Record<string, string>;
  assert.deepEqual(
    Object.keys(GERMAN).filter((key) => !(key in english)),
    [],
  );
});

test('a Locale over a translated bundle words a core message in that language', () => {
  const german = makeLocale(bundleTranslate(GERMAN), 'de-DE');
  assert.equal(statusText(summarize('gpt2', 'document', ['x'], 12345), german), '$(symbol-numeric) 12.345 Token · gpt2');
  assert.equal(bundleTranslate(GERMAN)('Token Lens: saved {0}', 'a.png'), 'Token Lens: saved a.png', 'untranslated: English');
});

test("a page's t over the bundle the host put on <body> translates its plots", () => {
  const t = bundleTranslate(readTranslations(JSON.stringify(GERMAN)));
  const view = { model: { kind: 'relax', energies: [-1, -2], forcesMax: [] }, elements: [], lattice: [] } as unknown as ResultView;
  const [energy] = plotsOf(view, t);
  assert.equal(energy?.title, 'Energie pro Schritt');
  assert.equal(energy?.xLabel, 'Schritt');
  assert.equal(plotsOf(view)[0]?.title, 'Energy per step', 'English without a bundle');
});

test('a page reads only string translations from its data-l10n attribute', () => {
  assert.deepEqual(readTranslations(undefined), {});
  assert.deepEqual(readTranslations('not json'), {});
  assert.deepEqual(readTranslations('["a"]'), {});
  assert.deepEqual(readTranslations('{"a": "b", "c": 1, "d": null}'), { a: 'b' });
  assert.equal(bundleTranslate(readTranslations('{"__proto__": "x"}'))('toString'), 'toString');
});
