/**
 * A translation applies: a bundle a translator filled (keys from l10n/bundle.l10n.json) translates a core message
 * through the Locale the extension builds (a count, an application's refusal of its input, a result's warning, a failed
 * request's buttons), and a page's plot through the page's t (bundleTranslate, as pages/bridge.ts).
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { test } from 'node:test';
import { statusText, summarize } from '../../../src/core/counts/summary';
import { predictProperty } from '../../../src/core/applications/predict';
import { checkReaction } from '../../../src/core/applications/validate';
import { ServiceError } from '../../../src/core/service/errors';
import { failureMessage } from '../../../src/core/service/failure';
import { readResult } from '../../../src/webviews/results/read';
import { bundleTranslate, makeLocale, readTranslations } from '../../../src/core/util/locale';
import type { ResultView } from '../../../src/webviews/results/protocol';
import { plotsOf } from '../../../src/webviews/results/plots';
import { BUNDLE } from '../../l10n/scan';

/** What a German translator would write in l10n/bundle.l10n.de.json (a few entries). */
const GERMAN = {
  '{0} tokens': '{0} Token',
  'Energy per step': 'Energie pro Schritt',
  Step: 'Schritt',
  '"{0}" is not a JARVIS identifier: write JVASP- and a number, e.g. JVASP-1002.':
    '„{0}“ ist keine JARVIS-Kennung: JVASP- und eine Zahl schreiben, z. B. JVASP-1002.',
  '{1} appears on one side only: no balance exists.': '{1} steht nur auf einer Seite: Es gibt keinen Ausgleich.',
  '{1} appear on one side only: no balance exists.': '{1} stehen nur auf einer Seite: Es gibt keinen Ausgleich.',
  Relax: 'Relaxation',
  'Nothing in the answer was recognised as a {0} result: all of it is under Other fields.':
    'Nichts in der Antwort wurde als Ergebnis einer {0} erkannt: Alles steht unter Weitere Felder.',
  'a number': 'eine Zahl',
  '{0} is not {1}: it is under Other fields.': '{0} ist nicht {1}: Es steht unter Weitere Felder.',
  'Try Again': 'Erneut versuchen',
  'Show Log': 'Protokoll anzeigen',
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

test("an application's refusal of a hand-written body and of a typed reaction is worded in the Locale given", () => {
  const german = makeLocale(bundleTranslate(GERMAN), 'de-DE');
  assert.equal(
    predictProperty.check({ jid: 'Si' }, german),
    '„Si“ ist keine JARVIS-Kennung: JVASP- und eine Zahl schreiben, z. B. JVASP-1002.',
  );
  assert.equal(checkReaction('H2 + O2', 'H2O2 + N2', german), 'N steht nur auf einer Seite: Es gibt keinen Ausgleich.');
  assert.equal(checkReaction('H2 + O2', 'H2O + N2 + C', german), 'N, C stehen nur auf einer Seite: Es gibt keinen Ausgleich.');
  assert.equal(predictProperty.check({ jid: 'Si' }), '"Si" is not a JARVIS identifier: write JVASP- and a number, e.g. JVASP-1002.');
});

test("a result's warnings and a failed request's buttons are worded in the Locale given", () => {
  const { t } = makeLocale(bundleTranslate(GERMAN), 'de-DE');
  const unknown = readResult('relax', { type: 'json', value: { surprise: 1 } }, {}, { t });
  assert.deepEqual(unknown.warnings, [
    'Nichts in der Antwort wurde als Ergebnis einer relaxation erkannt: Alles steht unter Weitere Felder.',
  ]);
  const wrong = readResult('relax', { type: 'json', value: { final_energy: 'high', energies: [-1, -2] } }, {}, { t });
  assert.ok(wrong.warnings.includes('final_energy ist nicht eine Zahl: Es steht unter Weitere Felder.'), wrong.warnings.join('\n'));
  assert.deepEqual(readResult('relax', { type: 'json', value: { surprise: 1 } }).warnings, [
    'Nothing in the answer was recognised as a relax result: all of it is under Other fields.',
  ]);
  const error = new ServiceError({ kind: 'server', method: 'POST', path: '/x', status: 503 });
  assert.deepEqual(failureMessage(error, 'https://s', 60, makeLocale(bundleTranslate(GERMAN), 'de-DE')).actions, [
    'Erneut versuchen',
    'Protokoll anzeigen',
  ]);
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
