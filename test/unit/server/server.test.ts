import { test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { APPS, createServer, type ReferenceServer } from '../../../src/server/http/app';
import { MATERIALS } from '../../../src/server/materials';
import { groundStateEnergy } from '../../../src/server/quantum';
import { heaDescriptors } from '../../../src/server/routes/hea';
import { reducedFormula } from '../../../src/server/routes/materials';
import { powderPattern } from '../../../src/server/routes/pxrd';
import { balanceReaction } from '../../../src/server/routes/reaction';
import { parseArgs } from '../../../src/server/main';
import { loadTokenizerSync } from '../../../src/core/tokenizers/index';

const KEY = 'server-test-key-77';
let server: ReferenceServer;
let url: string;

before(async () => {
  server = createServer({ apiKey: KEY, faults: true, ratePerMinute: 100_000 }); // rate limiting has its own tests
  url = await server.listen(0);
});
after(() => server.close());
beforeEach(() => server.faults.clear());

interface Answer {
  status: number;
  body: any;
  headers: Headers;
  text: string;
}

async function call(method: string, path: string, body?: unknown, key: string | null = KEY, raw?: string): Promise<Answer> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (key !== null) headers.authorization = `Bearer ${key}`;
  const response = await fetch(url + path, {
    method,
    headers,
    ...(raw !== undefined ? { body: raw } : body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: response.status, body: parsed, headers: response.headers, text };
}

const post = (path: string, body: unknown, key: string | null = KEY): Promise<Answer> => call('POST', path, body, key);

const SI_POSCAR = 'Si\n1.0\n5.43 0 0\n0 5.43 0\n0 0 5.43\nSi\n2\nDirect\n0 0 0\n0.25 0.25 0.25\n';

// ---- authentication ----

test('POST without a key: 401 with detail and WWW-Authenticate', async () => {
  const answer = await post('/tokenizer/tokenize', { text: 'x' }, null);
  assert.equal(answer.status, 401);
  assert.equal(typeof answer.body.detail, 'string');
  assert.equal(answer.headers.get('www-authenticate'), 'Bearer');
});

test('POST with a wrong key: 401', async () => {
  const answer = await post('/tokenizer/tokenize', { text: 'x' }, 'nope');
  assert.equal(answer.status, 401);
  assert.equal(answer.body.detail, 'Invalid API key.');
});

test('every POST endpoint needs the key', async () => {
  for (const app of APPS) {
    for (const op of ['search', 'compute', ...app.operations]) {
      const answer = await post(`/${app.name}/${op}`, {}, null);
      assert.equal(answer.status, 401, `/${app.name}/${op}`);
    }
  }
});

test('GET endpoints need no key', async () => {
  assert.equal((await call('GET', '/tokenizer', undefined, null)).status, 200);
  assert.equal((await call('GET', '/materials_explorer/detail/JVASP-1002', undefined, null)).status, 200);
});

// ---- tokenize ----

test('tokenize: spec 2.2 fields, default tokenizer, same result as the engine', async () => {
  const answer = await post('/tokenizer/tokenize', { text: 'The quick brown fox' });
  assert.equal(answer.status, 200);
  assert.deepEqual(Object.keys(answer.body).sort(), ['n_chars', 'n_tokens', 'text', 'token_ids', 'tokenizer', 'tokens']);
  assert.equal(answer.body.tokenizer, 'cl100k_base');
  assert.deepEqual(answer.body, loadTokenizerSync('cl100k_base').tokenize('The quick brown fox'));
  assert.equal(answer.body.n_tokens, answer.body.tokens.length);
  assert.equal(answer.body.tokens.join(''), 'The quick brown fox');
});

test('tokenize: every listed tokenizer name works; aliases echo the name as sent', async () => {
  for (const name of [
    'model-4',
    'model-4o',
    'model-3.5-turbo',
    'model-4o (o200k)',
    'model-2',
    'cl100k_base',
    'o200k_base',
    'p50k_base',
    'character',
    'whitespace',
  ]) {
    const answer = await post('/tokenizer/tokenize', { text: 'hello world', tokenizer: name });
    assert.equal(answer.status, 200, name);
    assert.equal(answer.body.tokenizer, name);
    assert.equal(answer.body.n_tokens, answer.body.token_ids.length);
  }
});

test('tokenize: character gives one token per code point', async () => {
  const text = 'añ🤖';
  const answer = await post('/tokenizer/tokenize', { text, tokenizer: 'character' });
  assert.deepEqual(answer.body.tokens, ['a', 'ñ', '🤖']);
  assert.equal(answer.body.n_chars, 3);
  assert.deepEqual(answer.body.token_ids, [97, 241, 0x1f916]);
});

test('tokenize: 400 for missing text, wrong types, unknown tokenizer, malformed JSON, non-object bodies', async () => {
  const cases: Array<[unknown, RegExp]> = [
    [{}, /"text" is required/],
    [{ text: 5 }, /"text" must be a string/],
    [{ text: 'x', tokenizer: 7 }, /"tokenizer" must be a string/],
    [{ text: 'x', tokenizer: 'gpt-9' }, /Unknown tokenizer "gpt-9"/],
    [{ text: 'x', tokenizer: 'CL100K_BASE' }, /Unknown tokenizer/],
    [[1, 2], /JSON object/],
  ];
  for (const [body, detail] of cases) {
    const answer = await post('/tokenizer/tokenize', body);
    assert.equal(answer.status, 400, JSON.stringify(body));
    assert.match(answer.body.detail, detail);
  }
  const malformed = await call('POST', '/tokenizer/tokenize', undefined, KEY, '{"text": ');
  assert.equal(malformed.status, 400);
  assert.match(malformed.body.detail, /Malformed JSON/);
});

test('tokenize: 50,000 characters (code points) pass, 50,001 do not', async () => {
  const emoji = '🤖'.repeat(50_000); // 100,000 UTF-16 units, 50,000 characters
  const ok = await post('/tokenizer/tokenize', { text: emoji, tokenizer: 'character' });
  assert.equal(ok.status, 200);
  assert.equal(ok.body.n_chars, 50_000);
  const over = await post('/tokenizer/tokenize', { text: 'a'.repeat(50_001), tokenizer: 'character' });
  assert.equal(over.status, 400);
  assert.match(over.body.detail, /50001 characters; the limit is 50000/);
});

test('a body over 2 MB is refused with 413 and a detail', async () => {
  const answer = await post('/tokenizer/tokenize', { text: 'x'.repeat(2 * 1024 * 1024 + 10) });
  assert.equal(answer.status, 413);
  assert.match(answer.body.detail, /larger than/);
});

// ---- 404, 405, 500 ----

test('404 for unknown apps, operations, deeper paths and ids', async () => {
  for (const path of [
    '/nope',
    '/nope/search',
    '/tokenizer/nope',
    '/tokenizer/tokenize/extra',
    '/materials_explorer/detail/JVASP-0',
    '/tokenizer/detail/gpt-9',
  ]) {
    const answer = await call(path.includes('detail') || path === '/nope' ? 'GET' : 'POST', path);
    assert.equal(answer.status, 404, path);
    assert.equal(typeof answer.body.detail, 'string');
  }
});

test('405 with Allow for the wrong method', async () => {
  const answer = await call('GET', '/tokenizer/tokenize');
  assert.equal(answer.status, 405);
  assert.equal(answer.headers.get('allow'), 'POST');
  assert.equal((await call('POST', '/tokenizer')).status, 405);
});

test('500 with detail when a handler throws', async () => {
  server.faults.next({ kind: 'throw', message: 'kaput' });
  const answer = await post('/tokenizer/tokenize', { text: 'x' });
  assert.equal(answer.status, 500);
  assert.equal(answer.body.detail, 'Internal server error: kaput');
});

// ---- rate limit ----

test('429 with Retry-After past the per-key limit; other keys and the window reset are unaffected', async () => {
  let now = 1_000_000;
  const limited = createServer({ apiKey: KEY, ratePerMinute: 3, now: () => now });
  const limitedUrl = await limited.listen(0);
  try {
    const send = () =>
      fetch(`${limitedUrl}/tokenizer/tokenize`, { method: 'POST', headers: { authorization: `Bearer ${KEY}` }, body: '{"text":"x"}' });
    for (let i = 0; i < 3; i++) assert.equal((await send()).status, 200);
    now += 20_000;
    const over = await send();
    assert.equal(over.status, 429);
    assert.equal(over.headers.get('retry-after'), '40');
    assert.match(((await over.json()) as { detail: string }).detail, /Rate limit exceeded/);
    const wrongKey = await fetch(`${limitedUrl}/tokenizer/tokenize`, {
      method: 'POST',
      headers: { authorization: 'Bearer other' },
      body: '{"text":"x"}',
    });
    assert.equal(wrongKey.status, 401, 'auth is checked first');
    now += 40_001;
    assert.equal((await send()).status, 200);
  } finally {
    await limited.close();
  }
});

test('the default limit is 100 per minute', async () => {
  const limited = createServer({ apiKey: KEY });
  const limitedUrl = await limited.listen(0);
  try {
    const statuses: number[] = [];
    for (let i = 0; i < 101; i++) {
      const r = await fetch(`${limitedUrl}/materials_explorer/search`, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY}` },
        body: '{}',
      });
      await r.arrayBuffer();
      statuses.push(r.status);
    }
    assert.equal(statuses.filter((s) => s === 200).length, 100);
    assert.equal(statuses[100], 429);
  } finally {
    await limited.close();
  }
});

// ---- every endpoint answers ----

const BODIES: Record<string, unknown> = {
  'tokenizer/tokenize': { text: 'hi' },
  'tokenizer/compute': { text: 'hi' },
  'tokenizer/search': { query: 'o200k' },
  'materials_explorer/search': { formula: 'Si' },
  'materials_explorer/compute': { elements: ['O'] },
  'gnn_predictor/predict': { jid: 'JVASP-1002', model: 'optb88vdw_bandgap' },
  'gnn_predictor/compute': { jid: 'JVASP-1002' },
  'tightbinding/compute': { poscar: SI_POSCAR, kpath_density: 20 },
  'pxrd/compute': { jid: 'JVASP-1002' },
  'pxrd/match': { formula: 'Si', xrd_data: '28.44 100\n47.30 55\n56.12 30' },
  'heterostructure/generate': { substrate_jid: 'JVASP-1002', film_jid: 'JVASP-1174' },
  'heterostructure/compute': { substrate_jid: 'JVASP-1002', film_jid: 'JVASP-1174' },
  'quantum/vqe': { hamiltonian: [{ pauli: 'Z', coefficient: 1 }] },
  'quantum/compute': { hamiltonian: [{ pauli: 'Z', coefficient: 1 }] },
  'reaction_network/balance': { reactants: ['H2', 'O2'], products: ['H2O'] },
  'reaction_network/compute': { equation: 'H2 + O2 -> H2O' },
  'hea/compute': { composition: { Fe: 1, Co: 1, Ni: 1, Cr: 1, Mn: 1 } },
  'optimade_explorer/query': { filter_string: 'elements HAS "O"' },
  'optimade_explorer/compute': { filter_string: 'nelements=1' },
};

test('every endpoint answers: GET page, search, compute, listed operations, detail', async () => {
  for (const app of APPS) {
    const page = await call('GET', `/${app.name}`, undefined, null);
    assert.equal(page.status, 200, app.name);
    assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
    assert.match(page.text, /<!doctype html>/);
    for (const op of ['search', 'compute', ...app.operations]) {
      const path = `${app.name}/${op}`;
      const structural = (app.name === 'gnn_ff_dynamics' && op !== 'search') || path === 'tightbinding/compute';
      const body = BODIES[path] ?? (structural ? { poscar: SI_POSCAR } : {});
      const answer = await post(`/${path}`, body);
      assert.equal(answer.status, 200, `${path}: ${answer.text}`);
      assert.match(answer.headers.get('content-type') ?? '', /^application\/json/);
      if (structural) assert.equal(answer.body.natoms, 2, path);
    }
    const id = app.name === 'tokenizer' ? 'model-4o%20(o200k)' : 'JVASP-1174';
    const detail = await call('GET', `/${app.name}/detail/${id}`, undefined, null);
    assert.equal(detail.status, 200, `${app.name} detail`);
  }
  assert.equal((await call('GET', '/')).status, 200);
});

test('materials search: formula, elements with modes, band gap range', async () => {
  const jids = async (body: unknown): Promise<string[]> =>
    (await post('/materials_explorer/search', body)).body.results.map((r: { jid: string }) => r.jid);
  assert.deepEqual(await jids({ formula: 'Si' }), ['JVASP-1002']);
  assert.deepEqual(await jids({ formula: 'Ga2As2' }), ['JVASP-1174']);
  assert.deepEqual(await jids({ elements: ['Ga', 'As'], element_mode: 'all' }), ['JVASP-1174']);
  assert.deepEqual(await jids({ elements: ['O'], element_mode: 'exact' }), []);
  assert.deepEqual(await jids({ elements: ['Ti', 'O'], element_mode: 'exact' }), ['JVASP-104']);
  assert.deepEqual((await jids({ elements: ['Cu', 'Fe'], element_mode: 'any' })).sort(), ['JVASP-867', 'JVASP-882']);
  assert.deepEqual(await jids({ bandgap_min: 1, bandgap_max: 1.5 }), ['JVASP-1002', 'JVASP-1174']);
  assert.equal((await jids({})).length, MATERIALS.length);
  assert.equal((await post('/materials_explorer/search', { element_mode: 'some' })).status, 400);
  assert.equal((await post('/materials_explorer/search', { bandgap_min: '1' })).status, 400);
  assert.equal((await post('/materials_explorer/search', { elements: 'Si' })).status, 400);
  assert.equal((await post('/materials_explorer/search', { formula: 'Si(' })).status, 400);
});

test('detail carries a POSCAR that the structure endpoints accept', async () => {
  const detail = await call('GET', '/materials_explorer/detail/JVASP-104');
  assert.equal(detail.body.formula, 'TiO2');
  const relax = await post('/gnn_ff_dynamics/relax', { poscar: detail.body.poscar });
  assert.equal(relax.status, 200);
  assert.equal(relax.body.natoms, 6);
  assert.deepEqual(relax.body.species, ['Ti', 'Ti', 'O', 'O', 'O', 'O']);
});

test('structure endpoints: 400 for missing, empty or malformed POSCAR and bad kpath_density', async () => {
  const cases: Array<[string, unknown, RegExp]> = [
    ['/gnn_ff_dynamics/relax', {}, /"poscar" is required/],
    ['/gnn_ff_dynamics/md', { poscar: 12 }, /"poscar" must be a string/],
    ['/gnn_ff_dynamics/single_point', { poscar: '  ' }, /"poscar" is empty/],
    [
      '/gnn_ff_dynamics/relax',
      { poscar: 'Si\n1.0\n5.43 0 0\n0 5.43\n0 0 5.43\nSi\n2\nDirect\n0 0 0\n0.25 0.25 0.25' },
      /^The POSCAR is malformed: Line 4: the second lattice vector needs three numbers/,
    ],
    [
      '/gnn_ff_dynamics/relax',
      { poscar: SI_POSCAR.replace('\n2\n', '\n2.5\n') },
      /Line 7: the counts line must hold positive whole numbers/,
    ],
    [
      '/gnn_ff_dynamics/relax',
      { poscar: SI_POSCAR.replace('\n2\n', '\n3\n') },
      /Line 7: the counts add up to 3 atoms, but only 2 coordinate lines follow/,
    ],
    ['/tightbinding/compute', { poscar: SI_POSCAR, kpath_density: 2.5 }, /"kpath_density" must be an integer/],
    ['/tightbinding/compute', { poscar: SI_POSCAR, kpath_density: 0 }, /between 1 and 1000/],
  ];
  for (const [path, body, detail] of cases) {
    const answer = await post(path, body);
    assert.equal(answer.status, 400, `${path} ${JSON.stringify(body)}: ${answer.text}`);
    assert.match(answer.body.detail, detail);
  }
});

test('gnn predictor: tabulated value, unknown model 400, unknown jid 404', async () => {
  const ok = await post('/gnn_predictor/predict', { jid: 'JVASP-1174', model: 'optb88vdw_bandgap' });
  assert.equal(ok.body.prediction, 1.42);
  assert.equal(ok.body.unit, 'eV');
  assert.equal((await post('/gnn_predictor/predict', { jid: 'JVASP-1174', model: 'magic' })).status, 400);
  assert.equal((await post('/gnn_predictor/predict', { jid: 'JVASP-999999' })).status, 404);
  assert.equal((await post('/gnn_predictor/predict', {})).status, 400);
});

test('pxrd: silicon peaks where they belong, a match finds silicon, bad data is a 400', async () => {
  const si = await post('/pxrd/compute', { jid: 'JVASP-1002' });
  const angles = si.body.peaks.map((p: { two_theta: number }) => p.two_theta);
  assert.ok(Math.abs(angles[0] - 28.44) < 0.05, `first Si peak at ${angles[0]}`);
  assert.deepEqual(si.body.peaks[0].hkl, [1, 1, 1]);
  assert.ok(!si.body.peaks.some((p: { hkl: number[] }) => p.hkl.join('') === '200'), 'Si 200 is extinct');
  const data = si.body.peaks.map((p: { two_theta: number; intensity: number }) => `${p.two_theta} ${p.intensity}`).join('\n');
  const match = await post('/pxrd/match', { xrd_data: data });
  assert.equal(match.body.matches[0].jid, 'JVASP-1002');
  assert.equal(match.body.matches[0].score, 1);
  const bad = await post('/pxrd/match', { formula: 'Si', xrd_data: '28.4 100\n47.3' });
  assert.equal(bad.status, 400);
  assert.match(bad.body.detail, /Line 2: expected two numbers/);
  assert.equal((await post('/pxrd/compute', { jid: 'JVASP-32' })).status, 501);
});

test('optimade subset: filters work, unknown syntax is a 400 listing what is understood', async () => {
  const ids = async (f: string): Promise<string[]> =>
    (await post('/optimade_explorer/query', { filter_string: f })).body.data.map((d: { id: string }) => d.id);
  assert.deepEqual(await ids('elements HAS ALL "Ga","As"'), ['JVASP-1174']);
  assert.deepEqual(await ids('elements HAS "O" AND nelements=2').then((x) => x.sort()), ['JVASP-104', 'JVASP-116', 'JVASP-32'].sort());
  assert.deepEqual(await ids('chemical_formula_reduced="NaCl"'), ['JVASP-23862']);
  const bad = await post('/optimade_explorer/query', { filter_string: 'band_gap > 1' });
  assert.equal(bad.status, 400);
  assert.match(bad.body.detail, /understands/);
});

test('science helpers', () => {
  assert.deepEqual(balanceReaction(['C3H8', 'O2'], ['CO2', 'H2O']), { reactants: [1, 5], products: [3, 4] });
  assert.deepEqual(balanceReaction(['Ca(OH)2', 'H3PO4'], ['Ca3(PO4)2', 'H2O']), { reactants: [3, 2], products: [1, 6] });
  assert.throws(() => balanceReaction(['H2'], ['O2']), /cannot be balanced/);
  assert.equal(reducedFormula('Ga2As2'), 'GaAs');
  const cantor = heaDescriptors({ Fe: 1, Co: 1, Ni: 1, Cr: 1, Mn: 1 });
  assert.equal(cantor.mixing_entropy_over_R, Number(Math.log(5).toFixed(4)));
  assert.equal(cantor.predicted_phase, 'FCC');
  assert.equal(cantor.is_high_entropy, true);
  assert.ok(
    Math.abs(
      groundStateEnergy([
        { pauli: 'ZZ', coefficient: 1 },
        { pauli: 'XX', coefficient: 0.5 },
      ]).energy + 1.5,
    ) < 1e-9,
  );
  assert.ok(
    Math.abs(
      groundStateEnergy([
        { pauli: 'X', coefficient: 3 },
        { pauli: 'Y', coefficient: 4 },
      ]).energy + 5,
    ) < 1e-9,
  );
  const fe = powderPattern(MATERIALS.find((m) => m.jid === 'JVASP-882')!.structure!);
  assert.deepEqual(fe[0]!.hkl, [1, 1, 0]);
});

test('reaction, hea, heterostructure and vqe validation', async () => {
  assert.equal((await post('/reaction_network/balance', { reactants: ['H2'] })).status, 400);
  assert.equal((await post('/reaction_network/balance', { reactants: ['H2'], products: ['O2'] })).status, 400);
  const eq = await post('/reaction_network/balance', { equation: 'Fe2O3 + C -> Fe + CO2' });
  assert.equal(eq.body.balanced, '2 Fe2O3 + 3 C -> 4 Fe + 3 CO2');
  assert.equal((await post('/hea/compute', { composition: { Fe: 1, Xx: 1 } })).status, 400);
  assert.equal((await post('/hea/compute', { composition: { Fe: -1 } })).status, 400);
  assert.equal((await post('/hea/compute', { elements: ['Ti', 'Zr', 'Hf', 'Nb', 'Ta'] })).body.predicted_phase, 'BCC');
  const hetero = await post('/heterostructure/generate', { substrate_jid: 'JVASP-1002', film_jid: 'JVASP-1174' });
  assert.ok(Math.abs(hetero.body.mismatch_percent - 4.088) < 0.01, String(hetero.body.mismatch_percent));
  assert.equal((await post('/heterostructure/generate', { substrate_jid: 'JVASP-1002' })).status, 400);
  assert.equal((await post('/quantum/vqe', { hamiltonian: [{ pauli: 'Q', coefficient: 1 }] })).status, 400);
  assert.equal(
    (
      await post('/quantum/vqe', {
        hamiltonian: [
          { pauli: 'Z', coefficient: 1 },
          { pauli: 'ZZ', coefficient: 1 },
        ],
      })
    ).status,
    400,
  );
});

// ---- faults ----

test('faults: queued in order, filtered by path, each taken once', async () => {
  server.faults.next({ kind: 'status', status: 503, path: '/materials_explorer/search' }).next({ kind: 'status', status: 502 });
  assert.equal((await post('/tokenizer/tokenize', { text: 'x' })).status, 502);
  assert.equal((await post('/materials_explorer/search', {})).status, 503);
  assert.equal((await post('/materials_explorer/search', {})).status, 200);
  server.faults.next({ kind: 'malformedJson' });
  const malformed = await post('/tokenizer/tokenize', { text: 'x' });
  assert.equal(malformed.status, 200);
  assert.equal(malformed.body, undefined);
  server.faults.next({ kind: 'rateLimit', retryAfter: 7 });
  const limited = await post('/tokenizer/tokenize', { text: 'x' });
  assert.equal(limited.status, 429);
  assert.equal(limited.headers.get('retry-after'), '7');
  server.faults.next({ kind: 'drop' });
  await assert.rejects(post('/tokenizer/tokenize', { text: 'x' }));
  server.faults.next({ kind: 'delay', ms: 200 });
  const started = Date.now();
  assert.equal((await post('/tokenizer/tokenize', { text: 'x' })).status, 200);
  assert.ok(Date.now() - started >= 190);
});

test('faults over HTTP: POST, GET and DELETE /__faults', async () => {
  const staged = await call('POST', '/__faults', { fault: { kind: 'status', status: 503, path: '/tokenizer/tokenize' }, times: 2 }, null);
  assert.equal(staged.status, 200);
  assert.equal(staged.body.pending.length, 2);
  assert.equal((await post('/tokenizer/tokenize', { text: 'x' })).status, 503);
  assert.equal((await call('GET', '/__faults')).body.pending.length, 1);
  await call('DELETE', '/__faults');
  assert.equal((await post('/tokenizer/tokenize', { text: 'x' })).status, 200);
  assert.equal((await call('POST', '/__faults', { nope: 1 })).status, 400);
});

test('without the faults option /__faults does not exist', async () => {
  const plain = createServer({ apiKey: KEY });
  const plainUrl = await plain.listen(0);
  try {
    const r = await fetch(`${plainUrl}/__faults`, { method: 'POST', body: '{"kind":"drop"}' });
    assert.equal(r.status, 404);
    assert.equal(plain.faults.pending.length, 0);
  } finally {
    await plain.close();
  }
});

test('command line: flags, defaults, errors', () => {
  assert.deepEqual(parseArgs(['--port', '9000', '--api-key', 'k1', '--faults']), {
    port: 9000,
    host: '127.0.0.1',
    apiKey: 'k1',
    rate: 100,
    faults: true,
  });
  assert.equal(parseArgs(['--port=0', '--api-key=abc']).apiKey, 'abc');
  assert.match(parseArgs([]).apiKey, /^(tl-[0-9a-f]{24}|.+)$/);
  assert.throws(() => parseArgs(['--port', 'x']), /--port/);
  assert.throws(() => parseArgs(['--bogus']), /Unknown argument/);
});
