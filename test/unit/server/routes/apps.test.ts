/**
 * The application endpoints whose bodies the spec does not show, in the shapes the service's public
 * documentation suggests: heterostructure from two structures or two jids, VQE from a jid and a k-point,
 * reactions from text, HEA from elements and fractions. Every answer depends on its input.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { referenceServer } from '../../../support/serverHarness';
import { parsePoscar } from '../../../../src/core/poscar/index';
import { millerAxis } from '../../../../src/server/heterostructure';
import { padToQubits, pauliTermCount, runVqe } from '../../../../src/server/quantum';
import { MAX_SPECIES } from '../../../../src/server/routes/reaction';

const { post } = referenceServer('apps-test-key');

const GE =
  'Ge\n1.0\n5.658 0 0\n0 5.658 0\n0 0 5.658\nGe\n8\nDirect\n0 0 0\n0.5 0.5 0\n0.5 0 0.5\n0 0.5 0.5\n0.25 0.25 0.25\n0.75 0.75 0.25\n0.75 0.25 0.75\n0.25 0.75 0.75\n';

test('heterostructure from two jids: a combined POSCAR that parses, with the atoms of both slabs and the lattice mismatch', async () => {
  const answer = await post('/heterostructure/generate', {
    jid1: 'JVASP-1174',
    jid2: 'JVASP-1002',
    film_index: '0_0_1',
    subs_index: '0_0_1',
    film_thickness: 6,
    subs_thickness: 6,
    separation: 3,
    vacuum: 12,
  });
  assert.equal(answer.status, 200);
  const parsed = parsePoscar(answer.body.combined_poscar);
  assert.equal(parsed.diagnostics.filter((d) => d.severity === 'error').length, 0);
  assert.deepEqual(parsed.poscar!.species, ['Si', 'Ga', 'As']);
  assert.equal(parsed.poscar!.sites.length, answer.body.n_atoms);
  // GaAs (5.653 Å) on Si (5.431 Å): 4.09 % along both in-plane axes, no angle mismatch.
  assert.ok(Math.abs(answer.body.mismatch_u - 0.04088) < 1e-4, String(answer.body.mismatch_u));
  assert.equal(answer.body.mismatch_u, answer.body.mismatch_v);
  assert.equal(answer.body.mismatch_angle, 0);
  // The cell height is the two slabs, the separation and the vacuum.
  const c = parsed.poscar!.lattice[2][2];
  assert.ok(Math.abs(c - (5.431 + 3 + 5.653 + 12)) < 1e-3, String(c));
});

test('heterostructure from POSCAR text: thicker slabs hold more atoms; a bad index or a missing film is a 400', async () => {
  const thin = await post('/heterostructure/generate', {
    poscar_film: GE,
    poscar_subs: GE.replace(/Ge/g, 'Si').replace(/5\.658/g, '5.431'),
    film_thickness: 5,
  });
  const thick = await post('/heterostructure/generate', {
    poscar_film: GE,
    poscar_subs: GE.replace(/Ge/g, 'Si').replace(/5\.658/g, '5.431'),
    film_thickness: 11,
  });
  assert.equal(thin.status, 200);
  assert.equal(thick.body.n_atoms - thin.body.n_atoms, 8);
  assert.equal(thin.body.film.name, 'Ge');
  assert.equal((await post('/heterostructure/generate', { jid1: 'JVASP-1174', jid2: 'JVASP-1002', film_index: '1_1_1' })).status, 400);
  assert.equal((await post('/heterostructure/generate', { jid2: 'JVASP-1002' })).status, 400);
  assert.equal((await post('/heterostructure/generate', { poscar_film: 'nonsense', jid2: 'JVASP-1002' })).status, 400);
  assert.throws(() => millerAxis('0_0'), /h_k_l/);
  assert.equal(millerAxis('0_2_0'), 1);
});

test('VQE from a jid: the variational energy is never below the classical one and depends on the k-point', async () => {
  const gamma = await post('/quantum/vqe', { jid: 'JVASP-1002', kpoint: [0, 0, 0] });
  const x = await post('/quantum/vqe', { jid: 'JVASP-1002', kpoint: [0.5, 0, 0.5] });
  assert.equal(gamma.status, 200);
  for (const answer of [gamma, x]) {
    assert.ok(answer.body.vqe_energy >= answer.body.classical_energy - 1e-6);
    assert.ok(answer.body.vqe_energy - answer.body.classical_energy < 0.05);
    assert.equal(answer.body.circuit.n_qubits, 4); // 8 atoms → 16×16 real form → 4 qubits
  }
  assert.notEqual(gamma.body.classical_energy, x.body.classical_energy);
  assert.equal((await post('/quantum/vqe', { jid: 'JVASP-1002', kpoint: [0, 0] })).status, 400);
  assert.equal((await post('/quantum/vqe', { jid: 'JVASP-1002', hamiltonian_type: 'hubbard' })).status, 400);
  assert.equal((await post('/quantum/vqe', { jid: 'JVASP-9999999' })).status, 404);
});

test('the VQE finds the ground state of a known matrix; Pauli terms are counted', () => {
  // [[1, 2], [2, −1]]: eigenvalues ±√5; = Z + 2X.
  const { matrix, qubits } = padToQubits([
    [1, 2],
    [2, -1],
  ]);
  assert.equal(qubits, 1);
  assert.ok(Math.abs(runVqe(matrix, qubits, 1).energy + Math.sqrt(5)) < 1e-8);
  assert.equal(pauliTermCount(matrix, qubits), 2);
  // Padding 3×3 to 4×4 keeps the lowest eigenvalue.
  const padded = padToQubits([
    [0, 1, 0],
    [1, 0, 1],
    [0, 1, 0],
  ]);
  assert.equal(padded.qubits, 2);
  assert.ok(Math.abs(runVqe(padded.matrix, 2, 3).energy + Math.SQRT2) < 1e-6);
});

test('reaction balancing takes reactants and products as text', async () => {
  const answer = await post('/reaction_network/balance', { reactants: 'Fe2O3 + C', products: 'Fe + CO2' });
  assert.equal(answer.status, 200);
  assert.deepEqual(answer.body.coefficients, { reactants: [2, 3], products: [4, 3] });
  const methane = await post('/reaction_network/balance', { reactants: 'CH4 + O2', products: 'CO2 + H2O' });
  assert.equal(methane.body.balanced, 'CH4 + 2 O2 -> CO2 + 2 H2O');
  assert.equal((await post('/reaction_network/balance', { reactants: 'H2 + Xq(', products: 'H2O' })).status, 400);
  // Up to MAX_SPECIES is balanced (the alkanes burnt together have many balances: a 400 that says so), past it refused at once.
  const alkanes = (n: number): string[] => Array.from({ length: n }, (_, i) => `C${i + 1}H${2 * i + 4}`);
  const many = await post('/reaction_network/balance', { reactants: [...alkanes(MAX_SPECIES - 3), 'O2'], products: ['CO2', 'H2O'] });
  assert.match(many.body.detail, /more than one independent balance/);
  const tooMany = await post('/reaction_network/balance', { reactants: [...alkanes(MAX_SPECIES - 2), 'O2'], products: ['CO2', 'H2O'] });
  assert.equal(tooMany.status, 400);
  assert.equal(
    tooMany.body.detail,
    `The reaction has ${MAX_SPECIES + 1} species; the reference server balances at most ${MAX_SPECIES}: split it.`,
  );
});

test('HEA from elements and fractions: composition, parameters and phase follow the input', async () => {
  const equal = await post('/hea/compute', { elements: ['Fe', 'Co', 'Ni', 'Cr', 'Mn'] });
  assert.equal(equal.status, 200);
  assert.deepEqual(equal.body.composition, { Fe: 0.2, Co: 0.2, Ni: 0.2, Cr: 0.2, Mn: 0.2 });
  assert.ok(Math.abs(equal.body.mixing_entropy - 8.314462618 * Math.log(5)) < 0.01);
  assert.equal(equal.body.predicted_phase, 'FCC');
  const skewed = await post('/hea/compute', { elements: ['Fe', 'Co', 'Ni'], fractions: [0.5, 0.25, 0.25] });
  assert.equal(skewed.body.formula, 'Fe0.5Co0.25Ni0.25');
  assert.ok(skewed.body.mixing_entropy < equal.body.mixing_entropy);
  const byObject = await post('/hea/compute', { elements: ['Fe', 'Co'], fractions: { Fe: 3, Co: 1 } });
  assert.deepEqual(byObject.body.composition, { Fe: 0.75, Co: 0.25 });
  assert.equal((await post('/hea/compute', { elements: ['Fe'] })).status, 400);
  assert.equal((await post('/hea/compute', { elements: ['Fe', 'Fe'] })).status, 400);
  assert.equal((await post('/hea/compute', { elements: ['Fe', 'Co'], fractions: [1] })).status, 400);
});
