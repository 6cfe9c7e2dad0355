/**
 * The application commands without the editor: what each asks, the body it builds, what it refuses
 * before anything is sent, and the JSON request document read back.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { APPLICATIONS, applicationOf } from '../../../../src/core/applications/applications';
import { parseDiffraction } from '../../../../src/core/diffraction/parse';
import { parseRequest, requestText } from '../../../../src/core/applications/request';
import { isRefusal, type Prompts, type TextPrompt, type PickPrompt } from '../../../../src/core/applications/types';
import {
  checkElements,
  checkFormula,
  checkJid,
  checkOptimadeFilter,
  checkReaction,
  normalizeMiller,
} from '../../../../src/core/applications/validate';

const app = (kind: string) => APPLICATIONS.find((a) => a.kind === kind)!;

/** Answers prompts in order, as a user would type them; records every check's verdict on the answer. */
function user(answers: (string | undefined)[], file?: string, poscars: { name: string; text: string; error?: string }[] = []) {
  const asked: string[] = [];
  const problems: (string | undefined)[] = [];
  const next = (title: string, check?: (v: string) => string | undefined) => {
    asked.push(title);
    const answer = answers.shift();
    problems.push(answer === undefined ? undefined : check?.(answer));
    return Promise.resolve(answer);
  };
  const prompts: Prompts = {
    text: (p: TextPrompt) => next(p.title, p.check),
    pick: (p: PickPrompt) => next(p.title, (v) => (p.items.some((i) => i.label === v) ? undefined : p.typed ? p.typed(v) : 'not an item')),
    diffraction: () => (file === undefined ? undefined : { name: 'data.xy', uri: 'file:///data.xy', data: parseDiffraction(file) }),
    history: () => [],
    poscars: () => poscars,
  };
  return { prompts, asked, problems };
}

test('checks: jid, formula, elements, reaction, filter, Miller index', () => {
  assert.equal(checkJid('JVASP-1002'), undefined);
  assert.match(checkJid('1002')!, /JVASP- and a number/);
  assert.equal(checkFormula('Fe2O3'), undefined);
  assert.match(checkFormula('Xq2')!, /"Xq" is not an element symbol/);
  assert.match(checkFormula('Fe2(O3')!, /not a formula/);
  assert.match(checkElements('Fe FE', 2, 10)!, /"FE" is not an element symbol/);
  assert.match(checkElements('Fe', 2, 10)!, /2 to 10/);
  assert.match(checkElements('Fe Co Fe', 2, 10)!, /Fe is listed twice/);
  assert.equal(checkReaction('Fe2O3 + C', '4 Fe + CO2'), undefined);
  assert.match(checkReaction('H2 + O2', 'H2O2 + N2')!, /N appears on one side only/);
  assert.equal(checkOptimadeFilter('elements HAS ALL "Ga","As"'), undefined);
  assert.match(checkOptimadeFilter('elements HAS "Ga')!, /quotation mark/);
  assert.match(checkOptimadeFilter('(nelements = 2')!, /not closed/);
  assert.equal(normalizeMiller('001'), '0_0_1');
  assert.equal(normalizeMiller('1 1 0'), '1_1_0');
  assert.equal(normalizeMiller('0_0_0'), undefined);
});

test('Search Materials asks five things and builds the spec 4.3 body', async () => {
  const u = user(['GaAs', 'Ga, As', 'exact', '0.5', '2']);
  const asked = await app('search').ask(u.prompts);
  assert.deepEqual(asked, { body: { formula: 'GaAs', elements: ['Ga', 'As'], element_mode: 'exact', bandgap_min: 0.5, bandgap_max: 2 } });
  assert.deepEqual(u.problems, [undefined, undefined, undefined, undefined, undefined]);
  // A maximum below the minimum is refused in the box, before anything is sent.
  const bad = user(['', '', '1', '0.5']);
  await app('search').ask(bad.prompts);
  assert.match(bad.problems[3]!, /must not be below the smallest/);
  // Without elements there is no mode to ask; empty answers leave the fields out.
  const plain = user(['', '', '', '']);
  assert.deepEqual(await app('search').ask(plain.prompts), { body: {} });
  assert.equal(plain.asked.length, 4);
});

test('each application asks, and Escape at any step sends nothing', async () => {
  const cases: [string, (string | undefined)[], object][] = [
    ['predict', ['jvasp-1174', 'bulk_modulus_kv'], { jid: 'JVASP-1174', model: 'bulk_modulus_kv' }],
    ['pxrd', ['JVASP-1002'], { jid: 'JVASP-1002' }],
    ['optimade', ['nelements = 1'], { filter_string: 'nelements = 1' }],
    [
      'heterostructure',
      ['JVASP-1174', 'JVASP-1002', '001'],
      { jid1: 'JVASP-1174', jid2: 'JVASP-1002', film_index: '0_0_1', subs_index: '0_0_1' },
    ],
    ['vqe', ['JVASP-1002', '0.5 0 0.5', 'tight_binding'], { jid: 'JVASP-1002', kpoint: [0.5, 0, 0.5], hamiltonian_type: 'tight_binding' }],
    ['reaction', ['Fe2O3 + C', 'Fe + CO2'], { reactants: 'Fe2O3 + C', products: 'Fe + CO2' }],
    ['hea', ['Fe Co Ni', '0.5 0.25 0.25'], { elements: ['Fe', 'Co', 'Ni'], fractions: [0.5, 0.25, 0.25] }],
  ];
  for (const [kind, answers, body] of cases) {
    const u = user([...answers]);
    const asked = await app(kind).ask(u.prompts);
    assert.ok(asked && !isRefusal(asked), kind);
    assert.deepEqual(asked.body, body, kind);
    assert.ok(
      u.problems.every((p) => p === undefined),
      `${kind}: ${u.problems.join(', ')}`,
    );
    assert.equal(app(kind).check(asked.body), undefined, kind);
    assert.equal(await app(kind).ask(user([...answers.slice(0, -1), undefined]).prompts), undefined, `${kind}: cancelled at the last step`);
  }
});

test('Generate Heterostructure takes an open POSCAR for either slab, and refuses one with errors', async () => {
  const gaas = { name: 'GaAs.vasp', text: 'GaAs\n1.0\n…' };
  const asked = await app('heterostructure').ask(user(['GaAs.vasp', 'JVASP-1002', '0 0 1'], undefined, [gaas]).prompts);
  assert.deepEqual(asked, { body: { poscar_film: gaas.text, jid2: 'JVASP-1002', film_index: '0_0_1', subs_index: '0_0_1' } });
  assert.equal(app('heterostructure').name((asked as { body: Record<string, unknown> }).body), 'GaAs on JVASP-1002');
  const broken = await app('heterostructure').ask(
    user(['POSCAR'], undefined, [{ name: 'POSCAR', text: 'x', error: 'Line 2: the scale must be a number' }]).prompts,
  );
  assert.deepEqual(broken, { refuse: 'POSCAR has an error, so Token Lens did not send it. Line 2: the scale must be a number' });
});

test('Match Pattern needs a diffraction file without errors, and sends its points', async () => {
  assert.match(((await app('pxrdMatch').ask(user([]).prompts)) as { refuse: string }).refuse, /Open a diffraction-data file/);
  const broken = await app('pxrdMatch').ask(user([], '28.4 100\n47.3 -5\n').prompts);
  assert.ok(isRefusal(broken));
  assert.match(broken.refuse, /data\.xy has an error.*Line 2: the intensity must not be negative/);
  assert.deepEqual(broken.at, { uri: 'file:///data.xy', line: 1, start: 5, end: 7 });
  const asked = await app('pxrdMatch').ask(user(['Si'], '# Si\n28.44 100\n47.30 55\n').prompts);
  assert.deepEqual(asked, { body: { formula: 'Si', xrd_data: '28.44 100\n47.3 55' }, inputUri: 'file:///data.xy' });
});

test('hand-written bodies are checked like the boxes', () => {
  assert.match(app('predict').check({ model: 'x' })!, /"jid" is required/);
  assert.match(app('predict').check({ jid: 'Si' })!, /not a JARVIS identifier/);
  assert.match(app('search').check({ bandgap_min: 3, bandgap_max: 1 })!, /larger than/);
  assert.match(app('search').check({ element_mode: 'some' })!, /one of all, any, exact/);
  assert.match(app('hea').check({ elements: ['Fe', 'Co'], fractions: [1] })!, /2 positive numbers/);
  assert.match(app('heterostructure').check({ jid1: 'JVASP-1' })!, /substrate is missing/);
  assert.equal(app('heterostructure').check({ poscar_film: 'x', poscar_subs: 'y', vacuum: 5 }), undefined);
  assert.match(app('pxrdMatch').check({ xrd_data: '10 1\n200 1' })!, /between 0 and 180/);
  assert.match(app('vqe').check({ jid: 'JVASP-1002', kpoint: [0, 0] })!, /three numbers/);
  assert.match(app('reaction').check({ reactants: 'H2 + O2', products: 'CO2' })!, /one side only/);
});

test('the JSON request document: header names the endpoint, comments keep error positions', () => {
  const search = app('search');
  const text = requestText(search, { formula: 'Si' });
  assert.equal(applicationOf(text.split('\n')[0]!), search);
  assert.deepEqual(parseRequest(text), { body: { formula: 'Si' } });
  const broken = `${text.split('\n').slice(0, 2).join('\n')}\n{ "formula": "Si", }\n`;
  const parsed = parseRequest(broken);
  assert.ok('error' in parsed);
  assert.equal(broken[parsed.error.offset], '}', `offset ${parsed.error.offset}: ${parsed.error.message}`);
  assert.match('error' in parseRequest('// Token Lens request: POST /hea/compute\n[1]') ? 'error' : '', /error/);
  assert.equal(applicationOf('// Token Lens request: POST /nowhere'), undefined);
});
