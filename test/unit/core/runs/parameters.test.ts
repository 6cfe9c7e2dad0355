/**
 * The relax and MD parameters (src/core/runs/parameters.ts): what a user may type, what a request carries,
 * what a stored form or a run record revives to, and the Parameters table of a result view. Property tests
 * check the validators are total (any string, any stored value: an answer, never a throw) and agree with
 * the reference server's own checks.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import {
  defaultValues,
  firstProblem,
  NOT_SENT,
  PARAMETERS,
  parameterRows,
  parseValue,
  requestFields,
  reviveValues,
  sentParameters,
  validateInput,
  type ChoiceParameter,
  type NumberParameter,
  type Parameter,
} from '../../../../src/core/runs/parameters';
import { SETTING_DEFAULTS } from '../../../../src/core/settings';
import { FIELDS } from '../../../../src/server/physics/answers';

const ALL: Parameter[] = [...PARAMETERS.relax, ...PARAMETERS.md];
const param = (kind: 'relax' | 'md', name: string) => PARAMETERS[kind].find((p) => p.name === name)!;
const numeric = (kind: 'relax' | 'md', name: string) => param(kind, name) as NumberParameter;

test('the parameters are agapi-named, with the settings’ defaults and the reference server’s ranges and defaults', () => {
  assert.deepEqual(
    PARAMETERS.relax.map((p) => p.name),
    ['fmax', 'steps', 'optimizer', 'relax_cell'],
  );
  assert.deepEqual(
    PARAMETERS.md.map((p) => p.name),
    ['temperature', 'timestep', 'steps', 'interval', 'ensemble'],
  );
  for (const p of ALL) assert.equal(p.default, SETTING_DEFAULTS[p.setting], p.setting);
  // The server's limits, by the field each parameter reaches (relax steps are the server's max_steps).
  const server: Record<string, keyof typeof FIELDS> = {
    'relax.fmax': 'fmax',
    'relax.steps': 'max_steps',
    'md.temperature': 'temperature',
    'md.timestep': 'timestep',
    'md.steps': 'steps',
    'md.interval': 'interval',
  };
  for (const [setting, field] of Object.entries(server)) {
    const p = ALL.find((x) => x.setting === setting) as NumberParameter;
    const limits = FIELDS[field] as { default: number; min: number; max: number; integer?: boolean };
    assert.deepEqual([p.min, p.max, p.integer, p.default], [limits.min, limits.max, limits.integer === true, limits.default], setting);
  }
  assert.deepEqual((param('md', 'ensemble') as ChoiceParameter).choices, ['nve', 'nvt']);
  assert.deepEqual((param('relax', 'optimizer') as ChoiceParameter).choices, ['FIRE']);
});

test('typed numbers: plain decimals in range are taken, everything else gets a message saying what is wanted', () => {
  const fmax = numeric('relax', 'fmax');
  assert.deepEqual(parseValue(fmax, ' 0.02 '), { ok: true, value: 0.02 });
  assert.deepEqual(parseValue(fmax, '1e-2'), { ok: true, value: 0.01 });
  assert.deepEqual(parseValue(fmax, '.5'), { ok: true, value: 0.5 });
  assert.deepEqual(parseValue(fmax, '10'), { ok: true, value: 10 });
  for (const bad of ['', '  ', '0', '0.0009', '10.01', '-1', 'NaN', 'Infinity', '0x1', '1,5', '0.05 eV', '1e400', 'abc'])
    assert.equal(parseValue(fmax, bad).ok, false, JSON.stringify(bad));
  assert.equal(validateInput(fmax, '20'), 'fmax must be a number from 0.001 to 10 eV/Å.');
  assert.equal(validateInput(fmax, ''), 'Enter fmax: a number from 0.001 to 10 eV/Å.');
  const steps = numeric('relax', 'steps');
  assert.deepEqual(parseValue(steps, '50'), { ok: true, value: 50 });
  assert.equal(validateInput(steps, '2.5'), 'steps must be a whole number (a whole number from 1 to 1000).');
  assert.equal(validateInput(steps, '1001'), 'steps must be a whole number from 1 to 1000.');
  assert.deepEqual(parseValue(numeric('md', 'temperature'), '0'), { ok: true, value: 0 });
  assert.deepEqual(parseValue(numeric('md', 'temperature'), '-0'), { ok: true, value: 0 });
  assert.equal(validateInput(numeric('md', 'interval'), '0'), 'interval must be a whole number from 1 to 2000.');
});

test('choices and true/false: case and spaces forgiven, the canonical spelling kept; anything else refused', () => {
  assert.deepEqual(parseValue(param('md', 'ensemble'), ' NVT '), { ok: true, value: 'nvt' });
  assert.deepEqual(parseValue(param('relax', 'optimizer'), 'fire'), { ok: true, value: 'FIRE' });
  assert.equal(validateInput(param('relax', 'optimizer'), 'BFGS'), 'optimizer must be FIRE.');
  assert.equal(validateInput(param('md', 'ensemble'), 'npt'), 'ensemble must be nve or nvt.');
  assert.deepEqual(parseValue(param('relax', 'relax_cell'), true), { ok: true, value: true });
  assert.deepEqual(parseValue(param('relax', 'relax_cell'), 'False'), { ok: true, value: false });
  assert.equal(parseValue(param('relax', 'relax_cell'), 1).ok, false);
});

test('a request carries only what differs from the default: a run at its defaults sends what it sent before', () => {
  assert.deepEqual(requestFields('relax', defaultValues('relax')), {});
  assert.deepEqual(requestFields('md', defaultValues('md')), {});
  assert.deepEqual(requestFields('relax', { ...defaultValues('relax'), relax_cell: true }), { relax_cell: true });
  assert.deepEqual(requestFields('md', { ensemble: 'nvt' }), { ensemble: 'nvt' });
  assert.deepEqual(requestFields('relax', { fmax: 0.02, steps: 50, optimizer: 'FIRE', relax_cell: false }), { fmax: 0.02, steps: 50 });
  assert.deepEqual(requestFields('md', { temperature: 600, timestep: 0.5, steps: 20, interval: 5, ensemble: 'nve' }), {
    temperature: 600,
    timestep: 0.5,
    steps: 20,
    interval: 5,
  });
});

test('settings that are not valid are named with their value; a form’s values are named as given', () => {
  assert.equal(firstProblem('relax', defaultValues('relax')), undefined);
  assert.equal(
    firstProblem('relax', { ...defaultValues('relax'), fmax: 50 }),
    'fmax must be a number from 0.001 to 10 eV/Å. (the setting tokenLens.relax.fmax is 50)',
  );
  assert.match(firstProblem('md', { ensemble: 'npt' })!, /tokenLens\.md\.ensemble is "npt"/);
  assert.match(firstProblem('md', { steps: 2.5 }, false)!, /\(given 2\.5\)$/);
});

test('remembered values revive field by field: invalid or missing ones fall back to the settings, then the defaults', () => {
  assert.deepEqual(reviveValues('relax', undefined), defaultValues('relax'));
  assert.deepEqual(reviveValues('relax', 'junk', { fmax: 0.1 }), { ...defaultValues('relax'), fmax: 0.1 });
  assert.deepEqual(reviveValues('md', { temperature: 900, steps: -3, ensemble: 'nvt', other: 1 }, { steps: 40, timestep: 'x' }), {
    temperature: 900,
    timestep: 1,
    steps: 40,
    interval: 1,
    ensemble: 'nvt',
  });
  assert.deepEqual(reviveValues('relax', JSON.parse('{"__proto__": {"fmax": 3}}')), defaultValues('relax'));
});

test('a run record keeps the parameter fields of the request, nothing else', () => {
  assert.deepEqual(sentParameters('relax', { poscar: 'x', fmax: 0.02, steps: 50, seed: 4, relax_cell: 'yes' }), { fmax: 0.02, steps: 50 });
  assert.deepEqual(sentParameters('md', null), {});
});

test('the Parameters table: every parameter, as sent and as the answer states it', () => {
  const rows = parameterRows('relax', { fmax: 0.02, steps: 50 }, { fmax: 0.02, max_steps: 50, optimizer: 'FIRE', relax_cell: false });
  assert.deepEqual(rows, [
    { name: 'fmax', sent: '0.02 eV/Å', answer: '0.02 eV/Å' },
    { name: 'steps', sent: '50 steps', answer: '50 steps' },
    { name: 'optimizer', sent: NOT_SENT, answer: 'FIRE' },
    { name: 'relax_cell', sent: NOT_SENT, answer: 'false' },
  ]);
  const md = parameterRows('md', { ensemble: 'nvt' }, { temperature: [1, 2], timestep_fs: 1, steps: 200, interval: 1, ensemble: 'nvt' });
  assert.deepEqual(
    md.map((r) => [r.name, r.sent, r.answer]),
    [
      ['temperature', NOT_SENT, ''],
      ['timestep', NOT_SENT, '1 fs'],
      ['steps', NOT_SENT, '200 steps'],
      ['interval', NOT_SENT, '1 step'],
      ['ensemble', 'nvt', 'nvt'],
    ],
  );
  assert.deepEqual(
    parameterRows('md', {}, undefined).map((r) => r.answer),
    ['', '', '', '', ''],
  );
  assert.equal(parameterRows('relax', {}, { optimizer: 'x'.repeat(10_000) })[2]!.answer.length, 100, 'a long echo is cut');
});

// ---- properties ---------------------------------------------------------------------------------

const anyText = fc.oneof(
  fc.string({ maxLength: 60 }),
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc.double().map(String),
  fc.integer().map(String),
  fc.constantFrom('Infinity', '-0', '1e309', '0x10', ' 1 ', '1_000', '١٢', '\u00a01', '1e-400'),
);

test('property: every validator is total: any string gets a verdict, never a throw, and a message exactly when refused', () => {
  fc.assert(
    fc.property(fc.constantFrom(...ALL), anyText, (p, text) => {
      const parsed = parseValue(p, text);
      const message = validateInput(p, text);
      assert.equal(parsed.ok, message === undefined);
      if (!parsed.ok) assert.ok(parsed.message.startsWith(p.name) || parsed.message.startsWith('Enter'), parsed.message);
    }),
    { seed: 20, numRuns: 3000 },
  );
});

test('property: what parses is in range (whole where it must be) and parses again to itself from its own text', () => {
  fc.assert(
    fc.property(fc.constantFrom(...ALL), anyText, (p, text) => {
      const parsed = parseValue(p, text);
      if (!parsed.ok) return;
      if (p.type === 'number') {
        const n = parsed.value as number;
        assert.ok(Number.isFinite(n) && n >= p.min && n <= p.max, `${p.name} ${n}`);
        if (p.integer) assert.ok(Number.isInteger(n));
      }
      assert.deepEqual(parseValue(p, String(parsed.value)), parsed);
    }),
    { seed: 21, numRuns: 3000 },
  );
});

test('property: every number in range is taken as typed, every number outside is refused', () => {
  const numbers = ALL.filter((p): p is NumberParameter => p.type === 'number');
  fc.assert(
    fc.property(fc.constantFrom(...numbers), fc.double({ noNaN: true, min: -1e4, max: 1e4 }), (p, x) => {
      const value = p.integer ? Math.round(x) : x;
      const parsed = parseValue(p, String(value));
      assert.equal(parsed.ok, value >= p.min && value <= p.max, `${p.name} ${value}`);
    }),
    { seed: 22, numRuns: 3000 },
  );
});

test('property: any stored value revives to values every check accepts, and the request built from them is accepted too', () => {
  fc.assert(
    fc.property(fc.constantFrom('relax' as const, 'md' as const), fc.anything(), fc.anything(), (kind, stored, fallback) => {
      const values = reviveValues(kind, stored, (typeof fallback === 'object' && fallback !== null ? fallback : {}) as never);
      assert.equal(firstProblem(kind, values), undefined);
      const fields = requestFields(kind, values);
      assert.deepEqual(sentParameters(kind, fields), fields);
      assert.deepEqual(requestFields(kind, fields), fields, 'sending what was sent sends the same');
    }),
    { seed: 23, numRuns: 2000 },
  );
});
