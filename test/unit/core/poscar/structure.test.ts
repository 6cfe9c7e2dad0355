import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import {
  cartToFrac,
  closeContacts,
  density,
  determinant,
  formula,
  fracToCart,
  latticeParameters,
  parsePoscar,
  reducedFormula,
  summarize,
  volume,
  type Mat3,
  type Poscar,
  type Site,
  type Vec3,
} from '../../../../src/core/poscar/index';
import { linearRatio } from '../../../support/linearity';
import { gridPoscar, NACL } from '../../../support/poscarSamples';

const workspace = (name: string) =>
  readFileSync(join(__dirname, '..', '..', '..', '..', '..', 'test', 'fixtures', 'workspace', name), 'utf8');
const near = (actual: number, expected: number, tolerance: number, what = '') =>
  assert.ok(Math.abs(actual - expected) <= tolerance, `${what} ${actual} vs ${expected}`);

test('NaCl conventional cell: volume, density, formula and reduced formula', () => {
  const s = summarize(parsePoscar(workspace('NaCl.vasp')).poscar!);
  near(s.volume, 179.406, 5e-4, 'volume');
  // 4 × (22.990 + 35.45) g/mol in 5.64³ Å³: 2.1636 g/cm³ (handbook rock salt: 2.165).
  near(s.density!, 2.165, 0.002, 'density');
  assert.deepEqual([s.formula, s.reducedFormula, s.elements, s.atoms], ['Na4Cl4', 'NaCl', { Na: 4, Cl: 4 }, 8]);
  assert.deepEqual([s.a, s.b, s.c, s.alpha, s.beta, s.gamma], [5.64, 5.64, 5.64, 90, 90, 90]);
  assert.deepEqual([s.coordinateMode, s.selectiveDynamics], ['Cartesian', false]);
  assert.deepEqual(summarize(parsePoscar(NACL).poscar!).formula, 'Na4Cl4');
});

test('Si primitive fcc cell: a = 3.840 Å and alpha = beta = gamma = 60°; density 2.329 g/cm³', () => {
  const s = summarize(parsePoscar(workspace('POSCAR')).poscar!);
  near(s.a, 5.431 / Math.SQRT2, 1e-12);
  for (const angle of [s.alpha, s.beta, s.gamma]) near(angle, 60, 1e-9);
  near(s.volume, 5.431 ** 3 / 4, 1e-9);
  near(s.density!, 2.329, 5e-4);
  assert.deepEqual([s.formula, s.reducedFormula], ['Si2', 'Si']);
});

test('a hexagonal cell has gamma = 120°', () => {
  const a = 3.21;
  const c = 5.21;
  const p = latticeParameters([
    [a, 0, 0],
    [-a / 2, (a * Math.sqrt(3)) / 2, 0],
    [0, 0, c],
  ]);
  near(p.gamma, 120, 1e-9);
  near(p.alpha, 90, 1e-9);
  near(p.beta, 90, 1e-9);
  near(p.b, a, 1e-12);
});

test('formula sums repeated species groups in order of first appearance and reduces by the common divisor', () => {
  assert.equal(formula({ species: ['Fe', 'O', 'Fe'], counts: [2, 6, 4] }), 'Fe6O6');
  assert.equal(reducedFormula({ species: ['Fe', 'O', 'Fe'], counts: [2, 6, 4] }), 'FeO');
  assert.equal(reducedFormula({ species: ['Fe', 'O'], counts: [6, 8] }), 'Fe3O4');
  assert.equal(formula({ species: ['Sr', 'Ti', 'O'], counts: [1, 1, 3] }), 'SrTiO3');
  assert.equal(formula({ species: ['X1', 'X2'], counts: [4, 1] }), '(X1)4(X2)', 'placeholders stay readable');
  assert.equal(formula({ species: ['Na', 'Ar'], counts: [2, 0] }), 'Na2');
  assert.equal(
    density({
      species: ['Xx'],
      counts: [1],
      lattice: [
        [1, 0, 0],
        [0, 1, 0],
        [0, 0, 1],
      ],
    }),
    undefined,
  );
});

test('signed determinant and volume; Cartesian <-> fractional round trip in a skewed cell', () => {
  const lattice: Mat3 = [
    [4.1, 0.3, -0.2],
    [1.7, 3.9, 0.4],
    [-0.8, 1.1, 6.3],
  ];
  const left: Mat3 = [lattice[1], lattice[0], lattice[2]];
  assert.ok(determinant(lattice) > 0);
  near(determinant(left), -determinant(lattice), 1e-12);
  near(volume(left), determinant(lattice), 1e-12);
  for (const frac of [
    [0.1, 0.2, 0.3],
    [-0.5, 1.25, 0.75],
    [0, 0, 0],
  ] as Vec3[]) {
    const back = cartToFrac(lattice, fracToCart(lattice, frac));
    back.forEach((x, k) => near(x, frac[k]!, 1e-12));
  }
  assert.deepEqual(fracToCart(lattice, [1, 0, 0]), lattice[0]);
});

test('Cartesian and Direct files of one structure give the same positions', () => {
  const cartesian = parsePoscar(workspace('NaCl.vasp')).poscar!;
  const direct = parsePoscar(NACL).poscar!;
  const sortKey = (s: Site) => s.frac.map((x) => x.toFixed(6)).join(' ');
  const a = [...cartesian.sites].sort((p, q) => sortKey(p).localeCompare(sortKey(q)));
  const b = [...direct.sites].sort((p, q) => sortKey(p).localeCompare(sortKey(q)));
  a.forEach((site, i) => site.cart.forEach((x, k) => near(x, b[i]!.cart[k]!, 1e-12)));
});

// ---- close contacts -------------------------------------------------------------------------------

function structure(lattice: Mat3, fracs: Vec3[]): Pick<Poscar, 'lattice' | 'sites'> {
  return {
    lattice,
    sites: fracs.map((frac, line) => ({ species: 'H', speciesIndex: 0, frac, cart: fracToCart(lattice, frac), label: '', line })),
  };
}

/** Every pair over a generous block of images: the reference the cell list must match. */
function bruteForce(p: Pick<Poscar, 'lattice' | 'sites'>, minDistance: number, images: number) {
  const out: { i: number; j: number; distance: number }[] = [];
  p.sites.forEach((a, i) =>
    p.sites.forEach((b, j) => {
      if (j < i) return;
      let best = Infinity;
      for (let x = -images; x <= images; x++)
        for (let y = -images; y <= images; y++)
          for (let z = -images; z <= images; z++) {
            if (i === j && x === 0 && y === 0 && z === 0) continue;
            const d = fracToCart(p.lattice, [b.frac[0] + x - a.frac[0], b.frac[1] + y - a.frac[1], b.frac[2] + z - a.frac[2]]);
            best = Math.min(best, Math.hypot(...d));
          }
      if (best < minDistance) out.push({ i, j, distance: best });
    }),
  );
  return out;
}

function random(seed: number): () => number {
  let state = seed;
  return () => (state = (state * 48271) % 2147483647) / 2147483647;
}

test('close contacts match a brute-force search over images in skewed and thin cells', () => {
  const r = random(42);
  for (let trial = 0; trial < 24; trial++) {
    const thin = trial % 4 === 0;
    const lattice: Mat3 = [
      [3 + 3 * r(), 0, 0],
      [(r() - 0.5) * 8, thin ? 0.9 : 2 + 3 * r(), 0],
      [(r() - 0.5) * 6, (r() - 0.5) * 6, 2 + 4 * r()],
    ];
    const fracs = Array.from({ length: 12 }, () => [r() * 2 - 0.5, r(), r()] as Vec3);
    const cutoff = 1 + 1.5 * r();
    const found = closeContacts(structure(lattice, fracs), cutoff);
    const expected = bruteForce(structure(lattice, fracs), cutoff, 6);
    assert.deepEqual(
      found.map(({ i, j }) => [i, j]),
      expected.map(({ i, j }) => [i, j]),
      `trial ${trial}`,
    );
    found.forEach((c, k) => near(c.distance, expected[k]!.distance, 1e-9, `trial ${trial}`));
  }
});

test('close contacts: the minimum image in a skewed cell, where rounding fractional differences is wrong', () => {
  // b is nearly a: the nearest image of atom 2 is one b away (0.46 Å), rounding keeps the one 4.27 Å away.
  const lattice: Mat3 = [
    [5, 0, 0],
    [4.6, 0.6, 0],
    [0, 0, 5],
  ];
  const fracs: Vec3[] = [
    [0, 0, 0],
    [0.42, 0.47, 0],
  ];
  const rounded = fracToCart(lattice, fracs[1]!.map((x) => x - Math.round(x)) as Vec3);
  const [contact] = closeContacts(structure(lattice, fracs), 0.5);
  assert.ok(contact, 'the pair is found');
  near(contact.distance, Math.hypot(...fracToCart(lattice, [0.42, 0.47 - 1, 0])), 1e-12);
  near(contact.distance, 0.464, 1e-3);
  assert.ok(Math.hypot(...rounded) > 4, 'rounding would have missed it');
});

test('close contacts across the periodic boundary, with a site and its own image, and a limit', () => {
  const cell: Mat3 = [
    [10, 0, 0],
    [0, 10, 0],
    [0, 0, 10],
  ];
  const pair = closeContacts(
    structure(cell, [
      [0.01, 0, 0],
      [0.99, 0, 0],
    ]),
  );
  assert.equal(pair.length, 1);
  near(pair[0]!.distance, 0.2, 1e-12);
  assert.deepEqual(
    closeContacts(
      structure(
        [
          [0.3, 0, 0],
          [0, 4, 0],
          [0, 0, 4],
        ],
        [[0.5, 0.5, 0.5]],
      ),
    ),
    [{ i: 0, j: 0, distance: 0.3 }],
  );
  const crowd = structure(
    cell,
    Array.from({ length: 10 }, () => [0.5, 0.5, 0.5] as Vec3),
  );
  assert.equal(closeContacts(crowd).length, 45);
  assert.equal(closeContacts(crowd, 0.5, 7).length, 7);
  assert.deepEqual(closeContacts(structure(cell, [[0.1, 0.1, 0.1]]), 0.5), []);
  assert.deepEqual(
    closeContacts(
      structure(
        [
          [1, 0, 0],
          [2, 0, 0],
          [0, 0, 1],
        ],
        [
          [0, 0, 0],
          [0, 0, 0],
        ],
      ),
    ),
    [],
    'a singular cell has none',
  );
});

test('close contacts stay linear: 10,000 atoms, and a big empty cell does not allocate a fine grid', async () => {
  const big = parsePoscar(gridPoscar([25, 20, 20])).poscar!;
  const start = performance.now();
  assert.deepEqual(closeContacts(big, 0.5), []);
  assert.equal(closeContacts(big, 2.6).length > 10_000, true, 'neighbours on the grid are found');
  const vacuum = structure(
    [
      [5000, 0, 0],
      [0, 5000, 0],
      [0, 0, 5000],
    ],
    [
      [0, 0, 0],
      [0.00005, 0, 0],
    ],
  );
  near(closeContacts(vacuum)[0]!.distance, 0.25, 1e-9);
  assert.ok(performance.now() - start < 2000, `${(performance.now() - start).toFixed(0)} ms`);
  const small = parsePoscar(gridPoscar([12, 10, 10])).poscar!; // 1,200 atoms: 8.3× fewer
  const { ratio, message } = await linearRatio({
    what: '8.3× the atoms',
    run: (s: typeof big) => closeContacts(s, 2.6),
    small,
    large: big,
    limit: 32,
  });
  assert.ok(ratio < 32, message);
});
