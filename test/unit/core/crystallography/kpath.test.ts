/**
 * The Setyawan-Curtarolo k-paths (Comput. Mater. Sci. 49, 299 (2010)) for one cell of each of the 25 lattice
 * variants: the variant, the paths as SC print them, and the special points, standard primitive cells and paths
 * of pymatgen's KPathSetyawanCurtarolo (after spglib's standardization, as our input is); the KPOINTS file read
 * back by pymatgen; the centring table against spglib's space-group database.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Mat3, Vec3 } from '../../../../src/core/poscar/types';
import { dot, norm, reciprocal, rowTimes } from '../../../../src/core/poscar/vec';
import {
  bravaisFromMetric,
  bravaisOfSpaceGroup,
  kPathOfSpaceGroup,
  pathText,
  pointsIn,
  samplePath,
  setyawanCurtarolo,
  type Bravais,
  type KPathDefinition,
} from '../../../../src/core/crystallography/kpath';
import { VARIANTS, type Variant } from '../../../../src/core/crystallography/kpathTable';
import { displayLabel, pymatgenLabel } from '../../../../src/core/crystallography/kpathLabels';
import {
  bandPathKpoints,
  lineDivisions,
  lineModeKpoints,
  standardizedFromMoyo,
  type MoyoStandardCell,
} from '../../../../src/core/crystallography/kpoints';
import { readFileSync } from 'node:fs';
import { askPymatgen, type PymatgenAnswer, type PymatgenCase } from '../../../support/pymatgenKpath';

const rad = (degrees: number): number => (degrees * Math.PI) / 180;
const diag = (a: number, b: number, c: number): Mat3 => [
  [a, 0, 0],
  [0, b, 0],
  [0, 0, c],
];
// SC's standard primitive cells, written out from their Tables 2–23 (Cartesian rows, Å).
const fcc = (a: number, b: number, c: number): Mat3 => [
  [0, b / 2, c / 2],
  [a / 2, 0, c / 2],
  [a / 2, b / 2, 0],
];
const bcc = (a: number, b: number, c: number): Mat3 => [
  [-a / 2, b / 2, c / 2],
  [a / 2, -b / 2, c / 2],
  [a / 2, b / 2, -c / 2],
];
const monoclinicConventional = (a: number, b: number, c: number, alpha: number): Mat3 => [
  [a, 0, 0],
  [0, b, 0],
  [0, c * Math.cos(rad(alpha)), c * Math.sin(rad(alpha))],
];
const mclc = (a: number, b: number, c: number, alpha: number): Mat3 => [
  [a / 2, b / 2, 0],
  [-a / 2, b / 2, 0],
  [0, c * Math.cos(rad(alpha)), c * Math.sin(rad(alpha))],
];
function rhl(a: number, alpha: number): Mat3 {
  const t = rad(alpha);
  const x = Math.cos(t) / Math.cos(t / 2);
  return [
    [a * Math.cos(t / 2), -a * Math.sin(t / 2), 0],
    [a * Math.cos(t / 2), a * Math.sin(t / 2), 0],
    [a * x, 0, a * Math.sqrt(1 - x * x)],
  ];
}
/** A triclinic cell whose reciprocal basis has these lengths (Å⁻¹, no 2π) and angles k_α, k_β, k_γ. */
function triclinic(lengths: Vec3, ka: number, kb: number, kg: number): Mat3 {
  const [ca, cb, cg] = [ka, kb, kg].map((x) => Math.cos(rad(x))) as Vec3;
  const sg = Math.sin(rad(kg));
  const b1: Vec3 = [1, 0, 0];
  const b2: Vec3 = [cg, sg, 0];
  const z = (ca - cb * cg) / sg;
  const b3: Vec3 = [cb, z, Math.sqrt(1 - cb * cb - z * z)];
  return reciprocal([b1, b2, b3].map((v, i) => v.map((x) => x * lengths[i]!)) as Mat3);
}

interface Case {
  variant: Variant;
  /** SC's primitive cell: the structure's cell (one atom at the origin gives the lattice's full symmetry). */
  lattice: Mat3;
  /** The lattice and SC's conventional cell, to build the path without a space group. */
  bravais: Bravais;
  conventional: Mat3;
  /** The default path as SC's paper prints it. */
  path: string;
}

const hexagonal = (a: number, c: number): Mat3 => [
  [a / 2, (-a * Math.sqrt(3)) / 2, 0],
  [a / 2, (a * Math.sqrt(3)) / 2, 0],
  [0, 0, c],
];
const mclc4a = (3 * Math.sin(rad(70))) / Math.sqrt(1 - (3 * Math.cos(rad(70))) / 5); // b cos α/c + b² sin²α/a² = 1
const TRI_PATH = 'X-Γ-Y|L-Γ-Z|N-Γ-M|R-Γ';
const P = (system: Bravais['system'], centering: Bravais['centering'] = 'P'): Bravais => ({ system, centering });
const tri = (variant: Variant, lattice: Mat3): Case => ({
  variant,
  lattice,
  bravais: P('triclinic'),
  conventional: lattice,
  path: TRI_PATH,
});

const CASES: Case[] = [
  { variant: 'CUB', lattice: diag(3.1, 3.1, 3.1), bravais: P('cubic'), conventional: diag(3.1, 3.1, 3.1), path: 'Γ-X-M-Γ-R-X|M-R' },
  {
    variant: 'FCC',
    lattice: fcc(4.05, 4.05, 4.05),
    bravais: P('cubic', 'F'),
    conventional: diag(4.05, 4.05, 4.05),
    path: 'Γ-X-W-K-Γ-L-U-W-L-K|U-X',
  },
  { variant: 'BCC', lattice: bcc(3.3, 3.3, 3.3), bravais: P('cubic', 'I'), conventional: diag(3.3, 3.3, 3.3), path: 'Γ-H-N-Γ-P-H|P-N' },
  {
    variant: 'TET',
    lattice: diag(3.8, 3.8, 5.1),
    bravais: P('tetragonal'),
    conventional: diag(3.8, 3.8, 5.1),
    path: 'Γ-X-M-Γ-Z-R-A-Z|X-R|M-A',
  },
  {
    variant: 'BCT1',
    lattice: bcc(4, 4, 3.1),
    bravais: P('tetragonal', 'I'),
    conventional: diag(4, 4, 3.1),
    path: 'Γ-X-M-Γ-Z-P-N-Z₁-M|X-P',
  },
  {
    variant: 'BCT2',
    lattice: bcc(3.2, 3.2, 5.3),
    bravais: P('tetragonal', 'I'),
    conventional: diag(3.2, 3.2, 5.3),
    path: 'Γ-X-Y-Σ-Γ-Z-Σ₁-N-P-Y₁-Z|X-P',
  },
  {
    variant: 'ORC',
    lattice: diag(3.1, 4.2, 5.3),
    bravais: P('orthorhombic'),
    conventional: diag(3.1, 4.2, 5.3),
    path: 'Γ-X-S-Y-Γ-Z-U-R-T-Z|Y-T|U-X|S-R',
  },
  {
    variant: 'ORCF1',
    lattice: fcc(3, 5, 6),
    bravais: P('orthorhombic', 'F'),
    conventional: diag(3, 5, 6),
    path: 'Γ-Y-T-Z-Γ-X-A₁-Y|T-X₁|X-A-Z|L-Γ',
  },
  {
    variant: 'ORCF2',
    lattice: fcc(4.5, 5, 6),
    bravais: P('orthorhombic', 'F'),
    conventional: diag(4.5, 5, 6),
    path: 'Γ-Y-C-D-X-Γ-Z-D₁-H-C|C₁-Z|X-H₁|H-Y|L-Γ',
  },
  {
    variant: 'ORCF3', // 1/2.4² = 1/3² + 1/4²
    lattice: fcc(2.4, 3, 4),
    bravais: P('orthorhombic', 'F'),
    conventional: diag(2.4, 3, 4),
    path: 'Γ-Y-T-Z-Γ-X-A₁-Y|X-A-Z|L-Γ',
  },
  {
    variant: 'ORCI',
    lattice: bcc(3, 4, 5),
    bravais: P('orthorhombic', 'I'),
    conventional: diag(3, 4, 5),
    path: 'Γ-X-L-T-W-R-X₁-Z-Γ-Y-S-W|L₁-Y|Y₁-Z',
  },
  {
    variant: 'ORCC',
    lattice: [
      [1.5, -2.5, 0],
      [1.5, 2.5, 0],
      [0, 0, 4],
    ],
    bravais: P('orthorhombic', 'C'),
    conventional: diag(3, 5, 4),
    path: 'Γ-X-S-R-A-Z-Γ-Y-X₁-A₁-T-Y|Z-T',
  },
  { variant: 'HEX', lattice: hexagonal(3, 5), bravais: P('hexagonal'), conventional: hexagonal(3, 5), path: 'Γ-M-K-Γ-A-L-H-A|L-M|K-H' },
  { variant: 'RHL1', lattice: rhl(4, 70), bravais: P('rhombohedral', 'R'), conventional: rhl(4, 70), path: 'Γ-L-B₁|B-Z-Γ-X|Q-F-P₁-Z|L-P' },
  { variant: 'RHL2', lattice: rhl(4, 110), bravais: P('rhombohedral', 'R'), conventional: rhl(4, 110), path: 'Γ-P-Z-Q-Γ-F-P₁-Q₁-L-Z' },
  {
    variant: 'MCL',
    lattice: monoclinicConventional(3, 4, 5, 70),
    bravais: P('monoclinic'),
    conventional: monoclinicConventional(3, 4, 5, 70),
    path: 'Γ-Y-H-C-E-M₁-A-X-H₁|M-D-Z|Y-D',
  },
  {
    variant: 'MCLC1', // a < b sin α: k_γ > 90°
    lattice: mclc(3, 4, 5, 70),
    bravais: P('monoclinic', 'C'),
    conventional: monoclinicConventional(3, 4, 5, 70),
    path: 'Γ-Y-F-L-I|I₁-Z-F₁|Y-X₁|X-Γ-N|M-Γ',
  },
  {
    variant: 'MCLC2', // a = b sin α: k_γ = 90°
    lattice: mclc(4 * Math.sin(rad(70)), 4, 5, 70),
    bravais: P('monoclinic', 'C'),
    conventional: monoclinicConventional(4 * Math.sin(rad(70)), 4, 5, 70),
    path: 'Γ-Y-F-L-I|I₁-Z-F₁|N-Γ-M',
  },
  {
    variant: 'MCLC3',
    lattice: mclc(4, 3, 5, 70),
    bravais: P('monoclinic', 'C'),
    conventional: monoclinicConventional(4, 3, 5, 70),
    path: 'Γ-Y-F-H-Z-I-F₁|H₁-Y₁-X-Γ-N|M-Γ',
  },
  {
    variant: 'MCLC4',
    lattice: mclc(mclc4a, 3, 5, 70),
    bravais: P('monoclinic', 'C'),
    conventional: monoclinicConventional(mclc4a, 3, 5, 70),
    path: 'Γ-Y-F-H-Z-I|H₁-Y₁-X-Γ-N|M-Γ',
  },
  {
    variant: 'MCLC5',
    lattice: mclc(3, 3, 3.5, 70),
    bravais: P('monoclinic', 'C'),
    conventional: monoclinicConventional(3, 3, 3.5, 70),
    path: 'Γ-Y-F-L-I|I₁-Z-H-F₁|H₁-Y₁-X-Γ-N|M-Γ',
  },
  tri('TRI1a', triclinic([1 / 3, 1 / 3.5, 1 / 4], 105, 100, 95)),
  tri('TRI1b', triclinic([1 / 3, 1 / 3.5, 1 / 4], 80, 75, 85)),
  tri('TRI2a', triclinic([1 / 3, 1 / 3.5, 1 / 4], 105, 100, 90)),
  tri('TRI2b', triclinic([1 / 3, 1 / 3.5, 1 / 4], 80, 75, 90)),
];

const close = (a: number, b: number, tolerance = 1e-6): boolean => Math.abs(a - b) <= tolerance;
const sameVec = (a: Vec3, b: Vec3, tolerance = 1e-6): boolean => a.every((x, i) => close(x, b[i]!, tolerance));
/** Lengths and angles (cosines) of a cell: equal for cells equal up to a rotation. */
const metric = (m: Mat3): number[] => [
  norm(m[0]),
  norm(m[1]),
  norm(m[2]),
  ...[
    [1, 2],
    [0, 2],
    [0, 1],
  ].map(([i, j]) => dot(m[i!]!, m[j!]!) / (norm(m[i!]!) * norm(m[j!]!))),
];
const fromPymatgen = (label: string): string => displayLabel(label);

/** pymatgen picks SC's boundary variants on exact float equality only; at a boundary it names a neighbour. */
const NEIGHBOURS: Partial<Record<Variant, string[]>> = {
  ORCF3: ['ORCF1', 'ORCF2'],
  MCLC2: ['MCLC1', 'MCLC3'],
  MCLC4: ['MCLC3', 'MCLC5'],
  TRI2a: ['TRI1a', 'TRI1b'],
  TRI2b: ['TRI1a', 'TRI1b'],
};
/**
 * Where pymatgen 2022.11.7 differs from SC's MCL table (Table 16): it has D₁ = (½, ½, −½) and M₂ = M₁; the
 * paper has D₁ = (½, 0, −½) and M₂ = (½, η, −ν), the images of D and M under the two-fold axis (neither is on the
 * path). Checked against the paper below.
 */
const PYMATGEN_DEVIATIONS: Partial<Record<Variant, string[]>> = { MCL: ['D₁', 'M₂'] };

const ownKpoints = CASES.map((c) => {
  const definition = setyawanCurtarolo(c.bravais, c.conventional);
  const points = pointsIn(definition, c.lattice);
  const divisions = lineDivisions(points, definition.branches, c.lattice, 20);
  return {
    points,
    definition,
    text: lineModeKpoints({ comment: `${c.variant} test`, points, branches: definition.branches, divisions }),
    divisions,
  };
});

let answer: PymatgenAnswer | undefined | null = null;
function oracle(t: { skip: (message: string) => void }): PymatgenAnswer | undefined {
  if (answer === null)
    answer = askPymatgen(
      CASES.map((c) => ({ name: c.variant, lattice: c.lattice })),
      ownKpoints.map((k) => k.text),
    );
  if (!answer)
    t.skip(
      'pymatgen and spglib are not installed for /usr/bin/python3 (apt install python3-pymatgen python3-spglib): the oracle comparisons did not run',
    );
  return answer;
}

test('every variant from its conventional cell without a space group: the variant and the path SC print', () => {
  assert.equal(Object.keys(VARIANTS).length, 25);
  assert.deepEqual(new Set(CASES.map((c) => c.variant)), new Set(Object.keys(VARIANTS)));
  for (const [i, c] of CASES.entries()) {
    const { definition, points } = ownKpoints[i]!;
    assert.equal(definition.variant, c.variant);
    assert.equal(pathText(definition.branches), c.path, c.variant);
    assert.ok(sameVec(points['Γ']!, [0, 0, 0]));
    for (const label of definition.branches.flat()) assert.ok(points[label], `${c.variant}: ${label} is a special point`);
    // The cell given is SC's primitive cell itself: its points are the table's (the triclinic cell is reduced and
    // reordered first, so there the same k-vectors have other coordinates).
    for (const [label, f] of Object.entries(definition.points)) {
      if (!c.variant.startsWith('TRI')) assert.ok(sameVec(points[label]!, f, 1e-9), `${c.variant} ${label}`);
      const length = (g: Vec3, cell: Mat3): number => norm(rowTimes(g, reciprocal(cell)));
      assert.ok(close(length(points[label]!, c.lattice), length(f, definition.primitive), 1e-9), `${c.variant} ${label}: |k|`);
    }
  }
});

test('special points computed from the paper’s formulas for the parametrised variants', () => {
  const point = (variant: Variant, label: string): Vec3 =>
    ownKpoints[CASES.findIndex((c) => c.variant === variant)]!.definition.points[label]!;
  // BCT2, a = 3.2, c = 5.3: η = (1 + a²/c²)/4, ζ = a²/(2c²); Σ = (−η, η, η), Y₁ = (½, ½, −ζ).
  const [a, c] = [3.2, 5.3];
  const η = (1 + (a * a) / (c * c)) / 4;
  assert.ok(sameVec(point('BCT2', 'Σ'), [-η, η, η], 1e-12));
  assert.ok(sameVec(point('BCT2', 'Y₁'), [0.5, 0.5, -(a * a) / (2 * c * c)], 1e-12));
  // RHL1, α = 70°: η = (1 + 4 cos α)/(2 + 4 cos α), ν = ¾ − η/2; B = (η, ½, 1 − η), P = (η, ν, ν).
  const e = (1 + 4 * Math.cos(rad(70))) / (2 + 4 * Math.cos(rad(70)));
  assert.ok(sameVec(point('RHL1', 'B'), [e, 0.5, 1 - e], 1e-9));
  assert.ok(sameVec(point('RHL1', 'P'), [e, 0.75 - e / 2, 0.75 - e / 2], 1e-9));
  // RHL2, α = 110°: η = 1/(2 tan²(α/2)); Q = (η, η, η).
  const e2 = 1 / (2 * Math.tan(rad(55)) ** 2);
  assert.ok(sameVec(point('RHL2', 'Q'), [e2, e2, e2], 1e-9));
  // MCL, b = 4, c = 5, α = 70°: η = (1 − b cos α/c)/(2 sin²α), ν = ½ − η c cos α/b (SC Table 16).
  const m = (1 - (4 * Math.cos(rad(70))) / 5) / (2 * Math.sin(rad(70)) ** 2);
  const ν = 0.5 - (m * 5 * Math.cos(rad(70))) / 4;
  assert.ok(sameVec(point('MCL', 'H'), [0, m, 1 - ν], 1e-9));
  assert.ok(sameVec(point('MCL', 'H₂'), [0, m, -ν], 1e-9));
  assert.ok(sameVec(point('MCL', 'M₂'), [0.5, m, -ν], 1e-9));
  assert.ok(sameVec(point('MCL', 'D₁'), [0.5, 0, -0.5], 1e-12));
  // ORCC, a = 3, b = 5: ζ = (1 + a²/b²)/4; A₁ = (−ζ, 1 − ζ, ½).
  const z = (1 + 9 / 25) / 4;
  assert.ok(sameVec(point('ORCC', 'A₁'), [-z, 1 - z, 0.5], 1e-12));
});

test('k-paths equal pymatgen’s KPathSetyawanCurtarolo after spglib’s standardization, one cell of each variant', (t) => {
  const oracleAnswer = oracle(t);
  if (!oracleAnswer) return;
  for (const [i, c] of CASES.entries()) {
    const theirs: PymatgenCase = oracleAnswer.cases[i]!;
    assert.equal(theirs.error, undefined, `${c.variant}: pymatgen failed: ${theirs.error}`);
    // Our input: spglib's space group and its standard conventional cell, in spglib's own (rotated) frame.
    const ours = kPathOfSpaceGroup(theirs.number, theirs.std_lattice);
    // At k_γ = 90° a triclinic lattice has both SC settings (TRI2a and TRI2b differ by the signs of two reciprocal
    // vectors); spglib's Niggli cell has no acute angle, so its setting is TRI2a.
    const settings = c.variant === 'TRI2b' ? ['TRI2a', 'TRI2b'] : [c.variant];
    assert.ok(settings.includes(ours.variant), `${c.variant}: ${ours.variant} from space group ${theirs.number}`);
    const exact = theirs.variant === c.variant;
    assert.ok(exact || NEIGHBOURS[c.variant]?.includes(theirs.variant!), `${c.variant}: pymatgen says ${theirs.variant}`);
    if (!c.variant.startsWith('TRI')) {
      const [m, n] = [metric(ours.primitive), metric(theirs.prim!)];
      m.forEach((x, k) => assert.ok(close(x, n[k]!, 1e-6), `${c.variant}: primitive cell ${m} vs pymatgen's ${n}`));
    } else {
      // Up to the order and the signs of the vectors (at k_γ = 90° both TRI2a and TRI2b are settings of the cell).
      const angles = (cell: Mat3): number[] => metric(reciprocal(cell)).slice(3).map(Math.abs).sort();
      angles(ours.primitive).forEach((x, k) => assert.ok(close(x, angles(theirs.prim!)[k]!, 1e-6), `${c.variant}: reciprocal angles`));
    }
    if (!exact) continue;
    const theirPoints = Object.fromEntries(Object.entries(theirs.points!).map(([l, f]) => [fromPymatgen(l), f]));
    assert.deepEqual(Object.keys(ours.points).sort(), Object.keys(theirPoints).sort(), `${c.variant}: labels`);
    for (const [label, f] of Object.entries(ours.points))
      if (!PYMATGEN_DEVIATIONS[c.variant]?.includes(label))
        assert.ok(sameVec(f, theirPoints[label]!), `${c.variant} ${label}: ${f} vs pymatgen's ${theirPoints[label]}`);
    assert.equal(pathText(theirs.path!.map((b) => b.map(fromPymatgen))), pathText(ours.branches), c.variant);
  }
});

test('the cell’s own frame: spglib’s conventional cell rotated back gives the points in the cell’s reciprocal basis', (t) => {
  const oracleAnswer = oracle(t);
  if (!oracleAnswer) return;
  for (const [i, c] of CASES.entries()) {
    const theirs: PymatgenCase = oracleAnswer.cases[i]!;
    const ours: KPathDefinition = kPathOfSpaceGroup(theirs.number, theirs.conventional);
    // pymatgen does not order the triclinic reciprocal basis (SC: k_γ the smallest or largest angle).
    if (theirs.variant !== c.variant || c.variant.startsWith('TRI')) continue;
    const inCell = pointsIn(ours, c.lattice);
    // The same k-vectors (Å⁻¹) as pymatgen's points in its primitive cell: their lengths agree. (spglib may choose
    // another monoclinic cell of the lattice than the one the case was built from; SC's points follow that choice.)
    for (const [label, f] of Object.entries(inCell)) {
      if (PYMATGEN_DEVIATIONS[c.variant]?.includes(label)) continue;
      const length = norm(rowTimes(f, reciprocal(c.lattice)));
      const expected = norm(rowTimes(theirs.points![pymatgenLabel(label)]!, reciprocal(theirs.prim!)));
      assert.ok(close(length, expected, 1e-6), `${c.variant} ${label}: |k| ${length} vs pymatgen's ${expected}`);
    }
  }
});

test('the KPOINTS file: pymatgen’s Kpoints.from_string reads line mode, N per segment, the end points and their labels', (t) => {
  const oracleAnswer = oracle(t);
  if (!oracleAnswer) return;
  for (const [i, c] of CASES.entries()) {
    const read: PymatgenAnswer['kpoints'][number] = oracleAnswer.kpoints[i]!;
    const { points, definition, divisions } = ownKpoints[i]!;
    assert.equal(read.style, 'Line_mode');
    assert.equal(read.coord_type, 'Reciprocal');
    assert.equal(read.num_kpts, divisions);
    const ends = definition.branches.flatMap((names) => names.slice(1).flatMap((name, s) => [names[s]!, name]));
    assert.deepEqual(read.labels, ends.map(pymatgenLabel), c.variant);
    read.kpts.forEach((k, j) => assert.ok(sameVec(k, points[ends[j]!]!, 1e-9), `${c.variant} ${ends[j]}`));
    const theirs: PymatgenCase = oracleAnswer.cases[i]!;
    const sameCell = metric(definition.primitive).every((x, k) => close(x, metric(theirs.prim!)[k]!, 1e-6));
    if (theirs.variant === c.variant && sameCell && !c.variant.startsWith('TRI'))
      ends.forEach((label, j) => {
        if (!PYMATGEN_DEVIATIONS[c.variant]?.includes(label))
          assert.ok(sameVec(read.kpts[j]!, theirs.points![pymatgenLabel(label)]!), `${c.variant} ${label} as pymatgen has it`);
      });
  }
});

test('centring and lattice system of all 230 space groups agree with spglib’s database', (t) => {
  const oracleAnswer = oracle(t);
  if (!oracleAnswer) return;
  const seen = new Set<number>();
  for (const [number, symbol] of oracleAnswer.groups) {
    if (seen.has(number)) continue; // the first Hall setting of each number is the standard one
    seen.add(number);
    const { centering, system } = bravaisOfSpaceGroup(number);
    assert.equal(centering, symbol[0], `${number} ${symbol}`);
    if (system === 'rhombohedral') assert.ok(number >= 143 && number <= 167);
  }
  assert.equal(seen.size, 230);
  assert.throws(() => bravaisOfSpaceGroup(0), RangeError);
  assert.throws(() => bravaisOfSpaceGroup(231), RangeError);
});

test('the conventional cell in another orientation or axis order gives the same variant and points', () => {
  const shuffled: Mat3 = [
    [0, 0, 6],
    [3, 0, 0],
    [0, 5, 0],
  ];
  const d = setyawanCurtarolo({ system: 'orthorhombic', centering: 'F' }, shuffled);
  assert.equal(d.variant, 'ORCF1');
  assert.deepEqual(metric(d.conventional).slice(0, 3), [3, 5, 6]);
  // A tetragonal cell with its four-fold axis first: the axis is found by its length.
  const tet = setyawanCurtarolo({ system: 'tetragonal', centering: 'I' }, diag(3.1, 4, 4));
  assert.equal(tet.variant, 'BCT1');
  assert.ok(close(tet.cell.a, 4) && close(tet.cell.c, 3.1));
  // spglib's C 1 2/m 1: unique axis b, centring (a + b)/2, β > 90°.
  const beta = rad(110);
  const c2m: Mat3 = [
    [4, 0, 0],
    [0, 3, 0],
    [5 * Math.cos(beta), 0, 5 * Math.sin(beta)],
  ];
  const m = setyawanCurtarolo({ system: 'monoclinic', centering: 'C' }, c2m);
  assert.ok(close(m.cell.a, 3) && close(m.cell.b, 4) && close(m.cell.c, 5) && close(m.cell.alpha, rad(70)));
});

test('labels: SC’s spelling and pymatgen’s', () => {
  const all = new Set(Object.values(VARIANTS).flatMap((v) => v.path.flat()));
  for (const label of all) assert.equal(displayLabel(pymatgenLabel(label)), label);
  assert.equal(pymatgenLabel('Γ'), '\\Gamma');
  assert.equal(pymatgenLabel('Σ₁'), '\\Sigma_1');
  assert.equal(pymatgenLabel('Z₁'), 'Z_1');
  assert.equal(displayLabel('$\\Gamma$'), 'Γ');
  assert.equal(displayLabel('GAMMA'), 'Γ');
});

test('the lattice from the metric: the server’s cells', () => {
  const a = 5.431;
  const cases: [Mat3, string][] = [
    [fcc(a, a, a), 'FCC'],
    [bcc(2.87, 2.87, 2.87), 'BCC'],
    [diag(3, 3, 3), 'CUB'],
    [hexagonal(3.21, 5.21), 'HEX'],
    [diag(4.6, 4.6, 2.96), 'TET'],
    [diag(4.6, 2.96, 4.6), 'TET'],
    [diag(4.1, 5.2, 3.3), 'ORC'],
    [rhl(4, 70), 'RHL1'],
    [monoclinicConventional(3, 4, 5, 70), 'MCL'],
  ];
  for (const [lattice, variant] of cases) {
    const { bravais, conventional } = bravaisFromMetric(lattice);
    const d = setyawanCurtarolo(bravais, conventional);
    assert.equal(d.variant, variant);
    if (variant === 'FCC') assert.deepEqual(pointsIn(d, lattice), d.points, 'SC’s primitive FCC cell: the points unchanged, exactly');
  }
  const skew: Mat3 = [
    [5.1, 0, 0],
    [1.4, 4.8, 0],
    [-0.9, 1.1, 5.3],
  ];
  assert.match(setyawanCurtarolo(bravaisFromMetric(skew).bravais, skew).variant, /^TRI/);
});

test('sampling: ceil(density × length) intervals per segment, lengths with the 2π', () => {
  const lattice = fcc(5.431, 5.431, 5.431);
  const d = setyawanCurtarolo({ system: 'cubic', centering: 'F' }, diag(5.431, 5.431, 5.431));
  const sampled = samplePath(d.points, d.branches, lattice, 10);
  const gx = (2 * Math.PI) / 5.431; // |ΓX| = 2π/a
  assert.equal(sampled.labels[1]!.label, 'X');
  assert.ok(close(sampled.labels[1]!.distance, gx, 1e-12));
  assert.equal(sampled.labels[1]!.index, Math.ceil(10 * gx));
  // The longest segment of the FCC path is Γ–K, 3√2π/(2a).
  assert.equal(lineDivisions(d.points, d.branches, lattice, 10), 1 + Math.ceil((10 * 3 * Math.SQRT2 * Math.PI) / (2 * 5.431)));
});

test('the KPOINTS of a structure: the space group’s path in the structure’s own basis, or the metric’s, said so', () => {
  const a = 3.615;
  const sites: Vec3[] = [
    [0, 0, 0],
    [0, a / 2, a / 2],
    [a / 2, 0, a / 2],
    [a / 2, a / 2, 0],
  ];
  const crystal = { lattice: diag(a, a, a), species: ['Cu', 'Cu', 'Cu', 'Cu'], positions: sites };
  // The conventional cubic cell of Cu with its space group (Fm-3m): SC's FCC path, in the cubic cell's basis.
  const fromGroup = bandPathKpoints(crystal, 20, { number: 225, conventionalLattice: diag(a, a, a) });
  assert.equal(fromGroup.variant, 'FCC');
  assert.equal(fromGroup.source, 'space group');
  const lines = fromGroup.text.split('\n');
  assert.match(lines[0]!, /^FCC k-path of Setyawan & Curtarolo \(2010\); space group 225; /);
  assert.equal(lines[1], String(fromGroup.divisions));
  assert.deepEqual(lines.slice(2, 4), ['Line-mode', 'Reciprocal']);
  const x = lines
    .find((l) => l.endsWith('! X'))!
    .split('!')[0]!
    .trim()
    .split(/\s+/)
    .map(Number) as Vec3;
  assert.ok(
    x.every((v) => Number.isInteger(v)),
    `X in the cubic cell's basis is a whole reciprocal vector: ${x}`,
  );
  assert.ok(close(norm(rowTimes(x, reciprocal(crystal.lattice))) * 2 * Math.PI, (2 * Math.PI) / a, 1e-9), '|ΓX| = 2π/a');
  assert.ok(/^[\x20-\x7e\n]*$/.test(fromGroup.text.replace(/\\/g, '')), 'ASCII only');
  // Without a space group the cubic cell's metric says simple cubic: its own zone's path, and the comment says why.
  const fromMetric = bandPathKpoints(crystal, 20);
  assert.equal(fromMetric.variant, 'CUB');
  assert.match(fromMetric.text.split('\n')[0]!, /lattice type from the cell metric/);
});

test('moyo’s standard cell rotated back into the cell’s frame: whole-number combinations of the cell, the same variants', async (t) => {
  let moyo: {
    initSync: (input: { module: Buffer }) => unknown;
    analyze_cell: (cell: string, symprec: number, setting: string) => MoyoStandardCell;
  };
  try {
    moyo = await import('@spglib/moyo-wasm');
    const wasm = readFileSync(require.resolve('@spglib/moyo-wasm/moyo_wasm_bg.wasm'));
    moyo.initSync({ module: wasm });
  } catch (e) {
    t.skip(`@spglib/moyo-wasm is not installed (npm ci): the moyo adapter was not checked (${String(e)})`);
    return;
  }
  for (const c of CASES) {
    const dataset = moyo.analyze_cell(
      JSON.stringify({ lattice: { basis: c.lattice.flat() }, positions: [[0, 0, 0]], numbers: [29] }),
      1e-4,
      'Standard',
    );
    const standardized = standardizedFromMoyo(dataset);
    // In the cell's frame the conventional vectors are lattice vectors: whole-number combinations of the cell's.
    const m = standardized.conventionalLattice.map((v) => reciprocal(c.lattice).map((b) => dot(v, b)));
    assert.ok(
      m.flat().every((x) => Math.abs(x - Math.round(x)) < 1e-6),
      `${c.variant}: ${JSON.stringify(m)}`,
    );
    const definition = kPathOfSpaceGroup(standardized.number, standardized.conventionalLattice);
    const settings = c.variant === 'TRI2b' ? ['TRI2a', 'TRI2b'] : [c.variant];
    assert.ok(settings.includes(definition.variant), `${c.variant}: moyo's cell gives ${definition.variant}`);
  }
});
