/**
 * The pure modules that were English-only word what the user reads in the Locale their caller gives: a pseudo-locale
 * that upper-cases each message (never its arguments) shows a reader's problem, an application's prompts, a result
 * table's header, a failed request's message, a run's name and the run options' descriptions in it, and every message it was asked for is a key of
 * l10n/bundle.l10n.json (what a translator fills).
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { test } from 'node:test';
import { quantumVqe } from '../../../src/core/applications/quantum';
import type { Prompts } from '../../../src/core/applications/types';
import { generateHeterostructure } from '../../../src/core/applications/heterostructure';
import { compareResults } from '../../../src/core/service/compare';
import { ServiceError, serviceErrorSummary } from '../../../src/core/service/errors';
import { runPoscar } from '../../../src/core/structures/runInput';
import { failureMessage } from '../../../src/core/service/failure';
import { PARAMETERS, parameterRow } from '../../../src/core/runs/parameters';
import { kindLabel, runTitle } from '../../../src/core/runs/run';
import { parsePoscar } from '../../../src/core/poscar/parse';
import { readStructure } from '../../../src/core/structures/formats';
import { ENGLISH, makeLocale, substitute, type Locale } from '../../../src/core/util/locale';
import { readResult } from '../../../src/webviews/results/read';
import { BUNDLE } from '../../l10n/scan';

const asked = new Set<string>();
/** Every message in capitals, its placeholders filled as given: "Line {0}: {1}" → "LINE 3: the file …". */
const LOUD: Locale = makeLocale((message, ...args) => {
  asked.add(message);
  return substitute(message.toUpperCase(), ...args);
}, 'en-US');

const POSCAR = 'Si\n1.0\n5.43 0 0\n0 5.43 0\n0 0 5.43\nSi\n2\nDirect\n0 0 0\n0.25 0.25 0.25\n';

test("a reader's problem and outline are worded in the Locale it is given", () => {
  const [problem] = parsePoscar('', LOUD).diagnostics;
  assert.match(problem!.message, /^LINE 1: the file is empty/);
  assert.match(parsePoscar('').diagnostics[0]!.message, /^Line 1: the file is empty/, 'English without one');
  const outline = readStructure('poscar', POSCAR, LOUD)!.outline;
  assert.deepEqual(
    outline.map((e) => [e.name, e.detail]),
    [
      ['LATTICE', ''],
      ['SITES', '2 ATOMS'],
    ],
  );
});

test("an application's title and prompts are worded in the Locale it is given", async () => {
  const shown: string[] = [];
  const answers = ['JVASP-1002', '0 0 0', 'tight_binding'];
  const prompts: Prompts = {
    text: (p) => (shown.push(p.title, p.prompt), Promise.resolve(answers.shift())),
    pick: (p) => (shown.push(p.title, p.placeHolder, ...p.items.map((i) => i.description ?? '')), Promise.resolve(answers.shift())),
    diffraction: () => undefined,
    history: () => [],
    poscars: () => [],
  };
  assert.equal(quantumVqe.title(LOUD.t), 'QUANTUM VQE');
  await quantumVqe.ask(prompts, LOUD);
  assert.deepEqual(shown, [
    'QUANTUM VQE (1/3)',
    'MATERIAL IDENTIFIER (JID)',
    'QUANTUM VQE (2/3)',
    'K-POINT, IN FRACTIONS OF THE RECIPROCAL LATTICE VECTORS',
    'QUANTUM VQE (3/3)',
    'HAMILTONIAN',
    "THE MATERIAL'S TIGHT-BINDING HAMILTONIAN AT THE K-POINT",
  ]);
});

test("a result table's title and header are worded in the Locale the view is read with", () => {
  const body = { type: 'json' as const, value: { results: [{ jid: 'JVASP-1002', formula: 'Si', bandgap: 0.6 }] } };
  const model = readResult('search', body, {}, { request: {}, t: LOUD.t });
  const table = 'tables' in model ? model.tables[0] : undefined;
  assert.equal(table?.title, 'MATERIALS');
  assert.deepEqual(table?.columns, ['ID', 'FORMULA', 'BAND GAP (EV)']);
  const english = readResult('search', body, {}, { request: {} });
  assert.deepEqual('tables' in english ? english.tables[0]?.columns : [], ['Id', 'Formula', 'Band gap (eV)'], 'English without one');
});

test("a failed request's summary and advice are worded in the Locale the host gives, the error's own message English", () => {
  const said = (init: ConstructorParameters<typeof ServiceError>[0], locale?: Locale): string =>
    failureMessage(new ServiceError(init), 'https://svc.example', 60, locale ?? LOUD).text;
  const key = { kind: 'unauthorized', method: 'POST', path: '/relax', status: 401, detail: 'bad key' } as const;
  assert.equal(
    said(key),
    'THE SERVICE DID NOT ACCEPT THE API KEY (401 Unauthorized): bad key. ' +
      'ENTER A NEW API KEY (FROM THE ACCOUNT SETTINGS OF THE SERVICE’S WEB SITE) AND TOKEN LENS WILL TRY AGAIN.',
  );
  assert.match(new ServiceError(key).message, /^The service did not accept the API key \(401 Unauthorized\): bad key$/, 'the log: English');
  assert.match(said(key, ENGLISH), /^The service did not accept the API key \(401 Unauthorized\): bad key\. Enter a new API key/);
  const loud: [ConstructorParameters<typeof ServiceError>[0], RegExp][] = [
    [
      { kind: 'notFound', method: 'GET', path: '/x', status: 404 },
      /^THE SERVICE HAS NO SUCH RESOURCE \(404 Not Found, GET \/x\)\. IF THE SERVICE URL \(https:\/\/svc.example\) IS WRONG/,
    ],
    [
      { kind: 'rateLimited', method: 'POST', path: '/x', status: 429, retryAfterMs: 2500 },
      /RATE \(429 Too Many Requests\)\. .* TRY AGAIN IN 3 S\.$/,
    ],
    [
      { kind: 'server', method: 'POST', path: '/x', status: 503, retries: 2 },
      /^THE SERVICE FAILED TO ANSWER .* TOKEN LENS RETRIED 2 TIMES\. TRY AGAIN LATER/,
    ],
    [
      { kind: 'timeout', method: 'POST', path: '/x', detail: 'no answer after 60 s' },
      /^THE SERVICE DID NOT ANSWER IN TIME \(POST \/x\): no answer after 60 s\. LARGE .*\(NOW 60 S\)/,
    ],
    [
      { kind: 'network', method: 'POST', path: '/x', detail: 'socket hang up' },
      /^COULD NOT REACH THE SERVICE \(POST \/x\): socket hang up\. CHECK THE SERVICE URL/,
    ],
    [
      { kind: 'malformedResponse', method: 'POST', path: '/x', status: 200 },
      /^THE SERVICE SENT AN ANSWER THAT COULD NOT BE READ \(200 OK, POST \/x\)\. CHECK THAT/,
    ],
  ];
  for (const [init, shown] of loud) assert.match(said(init), shown, init.kind);
});

test("a run's name, its kind's label and the run options' descriptions are worded in the Locale they are given", () => {
  assert.equal(runTitle({ kind: 'md', inputName: 'Si.vasp' }, LOUD.t), 'MOLECULAR DYNAMICS: Si.vasp');
  assert.equal(runTitle({ kind: 'md', inputName: 'Si.vasp' }), 'Molecular dynamics: Si.vasp', 'English without one');
  assert.equal(kindLabel('relax', LOUD.t), 'RELAX');
  assert.equal(kindLabel('pxrdMatch', LOUD.t), 'POWDER MATCH');
  const fmax = PARAMETERS.relax[0]!;
  assert.deepEqual(parameterRow(fmax, fmax.default, LOUD), {
    description: '0.05 eV/Å (DEFAULT: NOT SENT)',
    detail: 'CONVERGED WHEN EVERY FORCE IS BELOW THIS',
  });
  assert.deepEqual(parameterRow(fmax, 0.01), { description: '0.01 eV/Å', detail: 'converged when every force is below this' });
  const ensemble = PARAMETERS.md.find((p) => p.name === 'ensemble')!;
  assert.equal(ensemble.about(LOUD.t), 'NVE: CONSTANT ENERGY; NVT: A LANGEVIN THERMOSTAT AT THE TEMPERATURE');
});

test('refusals, run names, result headlines, endpoint failures and the service comparison are worded in the Locale given', () => {
  assert.equal(quantumVqe.check({ jid: 'JVASP-1002', kpoint: [0, 0] }, LOUD), '"KPOINT" MUST BE THREE NUMBERS.');
  assert.equal(generateHeterostructure.name({ jid2: 'JVASP-1002' }, LOUD.t), 'FILM ON JVASP-1002');
  assert.equal(generateHeterostructure.name({ jid2: 'JVASP-1002' }), 'film on JVASP-1002', 'English without one');
  const refused = runPoscar('poscar', 'Si\n1.0\n', 'Si.vasp', undefined, LOUD);
  assert.match('refuse' in refused ? refused.refuse : '', /^Si\.vasp HAS \d+ ERRORS?, SO TOKEN LENS DID NOT SEND IT\. LINE \d+: /);
  const predicted = readResult('predict', { type: 'json', value: {} }, {}, { request: {}, t: LOUD.t });
  assert.equal('headline' in predicted ? predicted.headline : '', 'NO PREDICTED VALUE IN THE ANSWER');
  const endpoint = { kind: 'unauthorized', method: 'POST', path: '/v1', status: 401 } as const;
  assert.equal(serviceErrorSummary(endpoint, LOUD.t, 'endpoint'), 'THE ENDPOINT DID NOT ACCEPT THE API KEY (401 Unauthorized)');
  const result = (tokens: string[]) => ({ tokenizer: 'gpt2', text: 'ab', n_tokens: tokens.length, n_chars: 2, tokens, token_ids: [1, 2] });
  const differ = compareResults('gpt2', 'ab', result(['a', 'b']), result(['ab', '']), 'text', LOUD.t);
  assert.match(
    differ.explanations[0]!,
    /^THE SERVICE COUNTS 2 TOKENS AND TOKEN LENS 2\. THEY FIRST DIFFER AT TOKEN 1: LOCAL "ab" \(ID 1\)/,
  );
});

test('every message the routed modules asked for is a key of the bundle a translator fills', () => {
  const bundle = JSON.parse(fs.readFileSync(BUNDLE, 'utf8')) as Record<string, string>;
  assert.ok(asked.size >= 10, `${asked.size} messages asked`);
  assert.deepEqual(
    [...asked].filter((message) => !Object.hasOwn(bundle, message)),
    [],
  );
});
