/** The high-symmetry k-paths and the s-orbital tight-binding band structure. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { combine, norm, reciprocal, sub, type Cell, type Mat3, type Vec3 } from '../../../../src/server/physics/cell';
import { bravaisLattice, kPath } from '../../../../src/server/physics/kpath';
import { setyawanCurtarolo } from '../../../../src/core/crystallography/kpath';
import { MATERIALS } from '../../../../src/server/materials';
import { runToEnd } from '../../../../src/core/util/steps';
import { bandEdges, bands, hopping, onsiteEnergy } from '../../../../src/server/physics/tightbinding';
import { diamond, primitiveSi, skewedNaCl } from '../../../support/physicsFixtures';

const close = (a: number, b: number, tolerance = 1e-9): boolean => Math.abs(a - b) <= tolerance;
const eigenvaluesAt = (cell: Cell, kpoints: Vec3[]): number[][] => runToEnd(bands(cell, kpoints));
const fcc = (a: number): Mat3 => [
  [0, a / 2, a / 2],
  [a / 2, 0, a / 2],
  [a / 2, a / 2, 0],
];
const bcc = (a: number): Mat3 => [
  [-a / 2, a / 2, a / 2],
  [a / 2, -a / 2, a / 2],
  [a / 2, a / 2, -a / 2],
];
const hexagonal = (a: number, c: number): Mat3 => [
  [a / 2, (-a * Math.sqrt(3)) / 2, 0],
  [a / 2, (a * Math.sqrt(3)) / 2, 0],
  [0, 0, c],
];

/** Rows times an arbitrary rotation. */
function rotated(m: Mat3): Mat3 {
  const [c, s, c2, s2] = [Math.cos(0.4), Math.sin(0.4), Math.cos(1.3), Math.sin(1.3)];
  return m.map((r) => {
    const x: Vec3 = [c * r[0] - s * r[1], s * r[0] + c * r[1], r[2]];
    return [x[0], c2 * x[1] - s2 * x[2], s2 * x[1] + c2 * x[2]];
  }) as Mat3;
}

test('lattice types from a b c α β γ, in Setyawan-Curtarolo settings, rotated or not, within tolerance', () => {
  const cases: [Mat3, string][] = [
    [fcc(5.431), 'FCC'],
    [rotated(fcc(3.6)), 'FCC'],
    [
      [
        [0, 2.7155, 2.7155],
        [2.7155, 0, 2.7155],
        [2.7155, 2.7155 * (1 + 4e-4), 0],
      ],
      'FCC',
    ],
    [
      [
        [5.431, 0, 0],
        [0, 5.431, 0],
        [0, 0, 5.431],
      ],
      'CUB',
    ],
    [bcc(2.866), 'BCC'],
    [hexagonal(3.21, 5.21), 'HEX'],
    [rotated(hexagonal(2.46, 6.7)), 'HEX'],
    [
      [
        [4.594, 0, 0],
        [0, 4.594, 0],
        [0, 0, 2.959],
      ],
      'TET',
    ],
    [
      [
        [4.1, 0, 0],
        [0, 5.2, 0],
        [0, 0, 3.3],
      ],
      'ORC',
    ],
    [
      [
        [5.1, 0, 0],
        [1.4, 4.8, 0],
        [-0.9, 1.1, 5.3],
      ],
      // No lattice above P-1 in this metric: SC's triclinic path (their TRI tables), where this test expected the old
      // stand-in Γ-X-Y-Z-Γ before the module had every variant.
      'TRI1b',
    ],
    [
      [
        [0, 2.7, 2.7],
        [2.7, 0, 2.7],
        [2.75, 2.75, 0],
      ],
      'TRI1a', // a = b ≠ c at 60°: the metric alone shows no higher lattice (triclinic path, as above)
    ],
    [
      [
        [4, 0, 0],
        [0, 4, 0],
        [0, 0.08, 4],
      ],
      'MCL', // exactly two right angles: the monoclinic metric, SC's MCL path (the module now has it)
    ], // 88.9°
  ];
  for (const [lattice, type] of cases) assert.equal(bravaisLattice(lattice), type, JSON.stringify(lattice));
});

test('special points land where the textbook puts them (lengths in Å⁻¹)', () => {
  const a = 5.431;
  const length = (lattice: Mat3, f: Vec3): number => norm(combine(f, reciprocal(lattice)));
  const cubic = (a: number): Mat3 => [
    [a, 0, 0],
    [0, a, 0],
    [0, 0, a],
  ];
  const f = setyawanCurtarolo({ system: 'cubic', centering: 'F' }, cubic(a)).points;
  assert.ok(close(length(fcc(a), f.X!), (2 * Math.PI) / a));
  assert.ok(close(length(fcc(a), f.L!), (Math.sqrt(3) * Math.PI) / a));
  assert.ok(close(length(fcc(a), f.K!), (3 * Math.sqrt(2) * Math.PI) / (2 * a)));
  assert.ok(close(length(fcc(a), f.W!), (Math.sqrt(5) * Math.PI) / a));
  assert.ok(close(length(fcc(a), f.U!), length(fcc(a), f.K!)), 'U and K are equivalent points');
  const b = setyawanCurtarolo({ system: 'cubic', centering: 'I' }, cubic(a)).points;
  assert.ok(close(length(bcc(a), b.H!), (2 * Math.PI) / a));
  assert.ok(close(length(bcc(a), b.N!), (Math.sqrt(2) * Math.PI) / a));
  assert.ok(close(length(bcc(a), b.P!), (Math.sqrt(3) * Math.PI) / a));
  const h = setyawanCurtarolo({ system: 'hexagonal', centering: 'P' }, hexagonal(3, 5)).points;
  assert.ok(close(length(hexagonal(3, 5), h.K!), (4 * Math.PI) / 9));
  assert.ok(close(length(hexagonal(3, 5), h.M!), (2 * Math.PI) / (Math.sqrt(3) * 3)));
  assert.ok(close(length(hexagonal(3, 5), h.A!), Math.PI / 5));
});

test('k-path: labels in path order at the right distances, ceil(density × length) intervals per segment, jumps at no distance', () => {
  const lattice = fcc(5.431);
  const density = 20;
  const path = kPath(lattice, density);
  assert.equal(path.path, 'Γ-X-W-K-Γ-L-U-W-L-K|U-X');
  assert.deepEqual(
    path.labels.map((l) => l.label),
    ['Γ', 'X', 'W', 'K', 'Γ', 'L', 'U', 'W', 'L', 'K|U', 'X'],
  );
  const recip = reciprocal(lattice);
  const points = setyawanCurtarolo({ system: 'cubic', centering: 'F' }, fcc(5.431)).points;
  let distance = 0;
  let index = 0;
  const names = ['Γ', 'X', 'W', 'K', 'Γ', 'L', 'U', 'W', 'L', 'K'];
  for (let s = 1; s < names.length; s++) {
    const length = norm(combine(sub(points[names[s]!]!, points[names[s - 1]!]!), recip));
    distance += length;
    index += Math.ceil(density * length);
    assert.equal(path.labels[s]!.index, index, names[s]);
    assert.ok(close(path.labels[s]!.distance, distance), names[s]);
    assert.ok(close(path.distances[index]!, distance));
    assert.deepEqual(path.kpoints[index], points[names[s]!]);
  }
  assert.deepEqual(path.kpoints[index + 1], points.U, 'after the jump the path goes on from U');
  assert.equal(path.distances[index + 1], path.distances[index], 'at the same distance');
  assert.equal(path.labels.at(-1)!.index, path.kpoints.length - 1);
  assert.deepEqual(path.kpoints.at(-1), points.X);
  assert.equal(path.kpoints.length, path.distances.length);
  path.distances.forEach((d, i) => assert.ok(i === 0 || d >= path.distances[i - 1]!));
  assert.ok(kPath(lattice, 40).kpoints.length > 1.9 * path.kpoints.length - 20);
  assert.equal(
    kPath(
      [
        [5, 0, 0],
        [1, 5, 0],
        [0.5, 0.5, 5],
      ],
      10,
    ).path,
    'X-Γ-Y|L-Γ-Z|N-Γ-M|R-Γ', // SC's triclinic path, where the old stand-in was Γ-X-Y-Z-Γ
  );
});

test('one s band per atom', () => {
  for (const cell of [primitiveSi(), diamond(1), skewedNaCl()]) {
    for (const values of eigenvaluesAt(cell, [
      [0, 0, 0],
      [0.1, 0.2, 0.3],
    ]))
      assert.equal(values.length, cell.positions.length);
  }
});

test('one-atom FCC: the band matches E(k) = ε − Σ t(|R|)·cos(k·R) over both neighbour shells, bottom at Γ', () => {
  const a = 3.615; // Cu: nearest neighbours at 0.97 r0, second neighbours at 1.37 r0 (inside the switching region)
  const cell: Cell = { lattice: fcc(a), symbols: ['Cu'], positions: [[0, 0, 0]] };
  const t = hopping('Cu', 'Cu');
  const [t1, t2] = [t(a / Math.SQRT2), t(a)];
  assert.ok(t1 > 0 && t2 > 0 && t2 < t1);
  const analytic = (k: Vec3): number => {
    const [cx, cy, cz] = k.map((x) => Math.cos((x * a) / 2));
    return onsiteEnergy('Cu') - 4 * t1 * (cx! * cy! + cy! * cz! + cz! * cx!) - 2 * t2 * k.reduce((s, x) => s + Math.cos(x * a), 0);
  };
  const fractional: Vec3[] = [
    [0, 0, 0],
    [0.5, 0, 0.5],
    [0.5, 0.5, 0.5],
    [0.375, 0.375, 0.75],
    [0.13, -0.21, 0.34],
  ];
  const values = eigenvaluesAt(cell, fractional);
  fractional.forEach((f, i) => assert.ok(close(values[i]![0]!, analytic(combine(f, reciprocal(cell.lattice)))), `k = ${f}`));
  const path = eigenvaluesAt(cell, kPath(cell.lattice, 10).kpoints).flat();
  assert.ok(close(Math.min(...path), values[0]![0]!), 'Γ is the band bottom');
  assert.ok(close(values[0]![0]!, onsiteEnergy('Cu') - 12 * t1 - 6 * t2));
});

test('one-atom simple cubic (Po): E(k) = ε − 2t Σ cos(k_i a) with nearest neighbours only', () => {
  const a = 3.35;
  const cell: Cell = {
    lattice: [
      [a, 0, 0],
      [0, a, 0],
      [0, 0, a],
    ],
    symbols: ['Po'],
    positions: [[0.3, -0.2, 1.1]],
  };
  const t = hopping('Po', 'Po')(a);
  assert.equal(hopping('Po', 'Po')(a * Math.SQRT2), 0);
  for (const f of [
    [0, 0, 0],
    [0.5, 0.5, 0.5],
    [0.25, 0, 0.1],
  ] as Vec3[]) {
    const [value] = eigenvaluesAt(cell, [f])[0]!;
    const expected = onsiteEnergy('Po') - 2 * t * f.reduce((s, x) => s + Math.cos(2 * Math.PI * x), 0);
    assert.ok(close(value!, expected), `k = ${f}`);
  }
});

test('two atoms: the folded simple-cubic band is doubly degenerate at Z and split at Γ; diamond Si is degenerate at X, split by 8t at Γ', () => {
  const a = 3.35;
  const doubled: Cell = {
    lattice: [
      [a, 0, 0],
      [0, a, 0],
      [0, 0, 2 * a],
    ],
    symbols: ['Po', 'Po'],
    positions: [
      [0, 0, 0],
      [0, 0, a],
    ],
  };
  const t = hopping('Po', 'Po')(a);
  const e = onsiteEnergy('Po');
  const [gamma, z] = eigenvaluesAt(doubled, [
    [0, 0, 0],
    [0, 0, 0.5],
  ]);
  assert.ok(close(gamma![0]!, e - 6 * t) && close(gamma![1]!, e - 2 * t), 'Γ: k = 0 and the folded k = π/a of the one-atom band');
  assert.ok(close(z![0]!, z![1]!) && close(z![0]!, e - 4 * t), 'Z: the two folded branches meet at k = π/2a');

  const si = primitiveSi();
  const t1 = hopping('Si', 'Si')((5.431 * Math.sqrt(3)) / 4);
  const [g, x] = eigenvaluesAt(si, [
    [0, 0, 0],
    [0.5, 0, 0.5],
  ]);
  assert.ok(close(g![0]!, onsiteEnergy('Si') - 4 * t1) && close(g![1]!, onsiteEnergy('Si') + 4 * t1), 'Γ: bonding and antibonding');
  assert.ok(close(x![0]!, x![1]!) && close(x![0]!, onsiteEnergy('Si')), 'X: degenerate at ε');
});

test('complex Bloch Hamiltonian: the kept eigenvalues have the trace and Frobenius norm of H(k); gauge and images do not matter', () => {
  const cell = skewedNaCl(7);
  const k: Vec3 = [0.17, -0.31, 0.23];
  const [values] = eigenvaluesAt(cell, [k]);
  // H(k) built by brute force over images, as complex numbers.
  const n = cell.positions.length;
  const re = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  const im = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  const kc = combine(k, reciprocal(cell.lattice));
  for (let i = 0; i < n; i++) {
    re[i]![i]! += onsiteEnergy(cell.symbols[i]!);
    for (let j = 0; j < n; j++) {
      for (let x = -3; x <= 3; x++)
        for (let y = -3; y <= 3; y++)
          for (let z = -3; z <= 3; z++) {
            const d = sub(combine([x, y, z], cell.lattice), sub(cell.positions[i]!, cell.positions[j]!));
            const r = norm(d);
            if (r < 1e-9) continue;
            const hop = hopping(cell.symbols[i]!, cell.symbols[j]!)(r);
            const phase = kc[0] * d[0] + kc[1] * d[1] + kc[2] * d[2];
            re[i]![j]! -= hop * Math.cos(phase);
            im[i]![j]! -= hop * Math.sin(phase);
          }
    }
  }
  const trace = re.reduce((s, row, i) => s + row[i]!, 0);
  const frobenius = re.reduce((s, row, i) => s + row.reduce((t, v, j) => t + v * v + im[i]![j]! ** 2, 0), 0);
  assert.ok(
    im.some((row) => row.some((v) => Math.abs(v) > 0.01)),
    'H(k) is genuinely complex here',
  );
  assert.ok(
    close(
      values!.reduce((s, v) => s + v, 0),
      trace,
      1e-8,
    ),
  );
  assert.ok(
    close(
      values!.reduce((s, v) => s + v * v, 0),
      frobenius,
      1e-8,
    ),
  );

  const moved = {
    ...cell,
    positions: cell.positions.map(
      (p, i) => [p[0] + 0.5 + (i === 2 ? cell.lattice[1][0] : 0), p[1] - 0.3 + (i === 2 ? cell.lattice[1][1] : 0), p[2] + 0.1] as Vec3,
    ),
  };
  eigenvaluesAt(moved, [k])[0]!.forEach((v, i) => assert.ok(close(v, values![i]!, 1e-9)));
});

test('band edges: insulator with VBM, CBM and gap from the eigenvalues; an odd electron count is a metal', () => {
  const h = 5.64 / 2;
  const nacl: Cell = {
    lattice: fcc(5.64),
    symbols: ['Na', 'Cl'],
    positions: [
      [0, 0, 0],
      [h, 0, 0],
    ],
  };
  const path = kPath(nacl.lattice, 20);
  const values = eigenvaluesAt(nacl, path.kpoints);
  const edges = bandEdges(values, 2);
  assert.equal(edges.isMetal, false);
  assert.equal(edges.vbm, Math.max(...values.map((v) => v[0]!)));
  assert.equal(edges.cbm, Math.min(...values.map((v) => v[1]!)));
  assert.ok(close(edges.bandGap, edges.cbm - edges.vbm) && edges.bandGap > 0.5);
  assert.ok(edges.fermiLevel > edges.vbm && edges.fermiLevel < edges.cbm);
  const vbmAt = values.findIndex((v) => v[0] === edges.vbm);
  const cbmAt = values.findIndex((v) => v[1] === edges.cbm);
  assert.equal(edges.directGap, close(values[vbmAt]![1]!, edges.cbm) || close(values[cbmAt]![0]!, edges.vbm));

  const copper: Cell = { lattice: fcc(3.615), symbols: ['Cu'], positions: [[0, 0, 0]] };
  const band = eigenvaluesAt(copper, kPath(copper.lattice, 20).kpoints);
  const metal = bandEdges(band, 1);
  assert.equal(metal.isMetal, true);
  assert.equal(metal.vbm, null);
  assert.equal(metal.bandGap, 0);
  const below = band.filter((v) => v[0]! <= metal.fermiLevel).length;
  assert.ok(Math.abs(below - band.length / 2) <= 1, 'half of the sampled states lie below the Fermi level');
});

test('the materials the server serves keep their ticks: the cubic cells the CUB path, rutile the TET path, same points', () => {
  // The labels and points the server gave before the k-paths moved to the core (SC's CUB and TET tables).
  const expected: Record<string, { labels: string[]; points: Record<string, Vec3> }> = {
    CUB: {
      labels: ['Γ', 'X', 'M', 'Γ', 'R', 'X|M', 'R'],
      points: { Γ: [0, 0, 0], X: [0, 0.5, 0], M: [0.5, 0.5, 0], R: [0.5, 0.5, 0.5] },
    },
    TET: {
      labels: ['Γ', 'X', 'M', 'Γ', 'Z', 'R', 'A', 'Z|X', 'R|M', 'A'],
      points: { Γ: [0, 0, 0], X: [0, 0.5, 0], M: [0.5, 0.5, 0], Z: [0, 0, 0.5], R: [0, 0.5, 0.5], A: [0.5, 0.5, 0.5] },
    },
  };
  const served = MATERIALS.filter((m) => m.structure);
  assert.ok(served.length >= 9);
  for (const m of served) {
    const path = kPath(m.structure!.lattice as Mat3, 20);
    const want = expected[m.crystal_system === 'tetragonal' ? 'TET' : 'CUB']!;
    assert.equal(path.variant, m.crystal_system === 'tetragonal' ? 'TET' : 'CUB', m.formula);
    assert.deepEqual(
      path.labels.map((l) => l.label),
      want.labels,
      m.formula,
    );
    for (const l of path.labels) assert.deepEqual(path.kpoints[l.index], want.points[l.label.split('|')[0]!], `${m.formula} ${l.label}`);
  }
});
