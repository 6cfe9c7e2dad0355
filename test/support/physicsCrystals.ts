/** Crystal cells, an equation-of-state fit and derivative checks shared by the ionic and bond-order potential tests. */
import assert from 'node:assert/strict';
import { rutileSites } from '../../src/server/materials';
import { volume, type Cell, type Mat3, type Vec3 } from '../../src/server/physics/cell';
import { EV_PER_A3_IN_GPA, stressGPa, type Evaluation } from '../../src/server/physics/potential';
import { relax } from '../../src/server/physics/relax';
import { runToEnd } from '../../src/core/util/steps';
import { fcc, shifted, strained, VOIGT, voigtStrain } from './physicsFixtures';

/** Two interpenetrating fcc lattices, n×n×n conventional cells: the cation's, then the anion's shifted by `shift`·a. */
function twoFcc(n: number, a: number, cation: string, anion: string, shift: Vec3): Cell {
  const sub = fcc(n, a, cation);
  return {
    lattice: sub.lattice,
    symbols: [...sub.symbols, ...sub.symbols.map(() => anion)],
    positions: [...sub.positions, ...sub.positions.map((p) => p.map((x, k) => x + shift[k]! * a) as Vec3)],
  };
}

/** Rock salt (8n³ ions): the anion's fcc lattice shifted by a/2 along x. */
export const rockSalt = (n: number, a: number, cation: string, anion: string): Cell => twoFcc(n, a, cation, anion, [0.5, 0, 0]);

/** Zincblende in its cubic cells (8n³ atoms): the anion's fcc lattice shifted by a/4 (1,1,1). */
export const zincblendeCubic = (n: number, a: number, cation: string, anion: string): Cell =>
  twoFcc(n, a, cation, anion, [0.25, 0.25, 0.25]);

/** The cubic perovskite ABO3 in its five-ion cell: A at the corner, B at the centre, O on the face centres. */
export function perovskite(a: number, A: string, B: string): Cell {
  const lattice: Mat3 = [
    [a, 0, 0],
    [0, a, 0],
    [0, 0, a],
  ];
  const f: Vec3[] = [
    [0, 0, 0],
    [0.5, 0.5, 0.5],
    [0.5, 0.5, 0],
    [0.5, 0, 0.5],
    [0, 0.5, 0.5],
  ];
  return { lattice, symbols: [A, B, 'O', 'O', 'O'], positions: f.map((p) => p.map((x) => x * a) as Vec3) };
}

/**
 * Corundum M2O3 in its ten-ion rhombohedral cell, from the hexagonal a and c, the cation's z and the anion's x (R-3c:
 * cations at ±(z, z, z) and ±(½ − z), anions at (¼ + x, ¼ − x, ¼) and (¾ − x, x − ¼, ¾) with their cyclic permutations).
 */
export function corundum(a: number, c: number, z: number, x: number, cation: string): Cell {
  const h = a / (2 * Math.sqrt(3));
  const lattice: Mat3 = [
    [a / 2, h, c / 3],
    [-a / 2, h, c / 3],
    [0, -2 * h, c / 3],
  ];
  const cyclic = (f: Vec3): Vec3[] => [f, [f[2], f[0], f[1]], [f[1], f[2], f[0]]];
  const cations: Vec3[] = [z, 0.5 - z, 1 - z, 0.5 + z].map((t): Vec3 => [t, t, t]);
  const anions = [...cyclic([0.25 + x, 0.25 - x, 0.25]), ...cyclic([0.75 - x, x - 0.25, 0.75])];
  const positions = [...cations, ...anions].map(
    (f) => [0, 1, 2].map((k) => f[0] * lattice[0][k]! + f[1] * lattice[1][k]! + f[2] * lattice[2][k]!) as Vec3,
  );
  return { lattice, symbols: [...cations.map(() => cation), ...anions.map(() => 'O')], positions };
}

/** Rutile MO2 in its six-ion cell, with the reference server's sites. */
export function rutile(a: number, c: number, u: number, cation: string): Cell {
  const lattice: Mat3 = [
    [a, 0, 0],
    [0, a, 0],
    [0, 0, c],
  ];
  const positions = rutileSites(u).map((p): Vec3 => [p[0] * a, p[1] * a, p[2] * c]);
  return { lattice, symbols: [cation, cation, 'O', 'O', 'O', 'O'], positions };
}

/** Wurtzite (P6₃mc) in its four-atom cell: cations at (⅓, ⅔, 0) and (⅔, ⅓, ½), anions u·c above each. */
export function wurtzite(cation: string, anion: string, a: number, c: number, u: number): Cell {
  const lattice: Mat3 = [
    [a / 2, (-a * Math.sqrt(3)) / 2, 0],
    [a / 2, (a * Math.sqrt(3)) / 2, 0],
    [0, 0, c],
  ];
  const fractional: Vec3[] = [
    [1 / 3, 2 / 3, 0],
    [2 / 3, 1 / 3, 0.5],
    [1 / 3, 2 / 3, u],
    [2 / 3, 1 / 3, 0.5 + u],
  ];
  const positions = fractional.map(
    (f) => [0, 1, 2].map((k) => f[0] * lattice[0][k]! + f[1] * lattice[1][k]! + f[2] * lattice[2][k]!) as Vec3,
  );
  return { lattice, symbols: [cation, cation, anion, anion], positions };
}

/** The minimum of a smooth function on [lo, hi] by golden-section search. */
export function minimum(f: (x: number) => number, lo: number, hi: number): number {
  const g = (Math.sqrt(5) - 1) / 2;
  while (hi - lo > 1e-7) {
    const a = hi - g * (hi - lo);
    const b = lo + g * (hi - lo);
    if (f(a) < f(b)) hi = b;
    else lo = a;
  }
  return (lo + hi) / 2;
}

/** The lattice constant (Å) of least energy, the energy per atom there (eV) and the bulk modulus V d²E/dV² (GPa). */
export function equilibrium(evaluate: (cell: Cell) => Evaluation, build: (a: number) => Cell, guess: number) {
  const n = build(guess).positions.length;
  const perAtom = (a: number): number => evaluate(build(a)).energy / n;
  const a = minimum(perAtom, 0.9 * guess, 1.1 * guess);
  const h = 2e-3 * a;
  const v = (x: number): number => volume(build(x).lattice) / n;
  const dV = (v(a + h) - v(a - h)) / 2;
  const curvature = (perAtom(a + h) - 2 * perAtom(a) + perAtom(a - h)) / dV ** 2;
  return { a, energy: perAtom(a), bulk: v(a) * curvature * EV_PER_A3_IN_GPA };
}

/** A shear with every off-diagonal component and unequal diagonal ones, for the stress checks. */
export const SHEAR = [
  [0.02, 0.03, 0],
  [0.03, -0.01, 0.02],
  [0, 0.02, 0.01],
];

/** Asserts forces are minus the central-difference gradient of the energy for the given atoms, and sum to zero. */
export function assertForcesAreGradient(
  evaluate: (cell: Cell) => Evaluation,
  cell: Cell,
  atoms: readonly number[],
  tolerance: number,
): void {
  const h = 1e-5;
  const { forces } = evaluate(cell);
  for (const i of atoms) {
    for (let k = 0; k < 3; k++) {
      const numerical = -(evaluate(shifted(cell, i, k, h)).energy - evaluate(shifted(cell, i, k, -h)).energy) / (2 * h);
      assert.ok(Math.abs(forces[i]![k]! - numerical) <= tolerance, `atom ${i} component ${k}: ${forces[i]![k]} vs ${numerical}`);
    }
  }
  const total = [0, 1, 2].map((k) => forces.reduce((s, f) => s + f[k]!, 0));
  assert.ok(Math.hypot(...total) < 1e-8, `forces sum to ${total}`);
}

/** Asserts each stress component is the central-difference strain derivative of the energy over the volume (GPa). */
export function assertStressIsStrainDerivative(evaluate: (cell: Cell) => Evaluation, cell: Cell, tolerance: number): void {
  const h = 1e-6;
  const stress = stressGPa(evaluate(cell).virial, cell);
  const v0 = volume(cell.lattice);
  VOIGT.forEach((component, v) => {
    const plus = evaluate(strained(cell, voigtStrain(component, h))).energy;
    const minus = evaluate(strained(cell, voigtStrain(component, -h))).energy;
    const numerical = ((plus - minus) / (2 * h) / v0) * EV_PER_A3_IN_GPA;
    assert.ok(Math.abs(stress[v]! - numerical) <= tolerance, `component ${v}: ${stress[v]} vs ${numerical} GPa`);
  });
}

/**
 * The relaxed-ion elastic constants C_ij (GPa, i, j over xx, yy, zz) of a cell at its minimum, each the central difference
 * of the stress over a strain of ±0.5 % with the ions relaxed in the strained cell, and the Reuss bulk modulus
 * 1/Σ S_ij (S = C⁻¹) they give. Right for cells whose normal strains do not couple to shears (orthogonal axes along
 * the crystal's: cubic, tetragonal, the hexagonal cell with c along z).
 */
export function relaxedIonModuli(evaluate: (cell: Cell) => Evaluation, cell: Cell) {
  const h = 0.005;
  /** The stress (GPa, Voigt) after each normal strain j of size eps, the ions relaxed. */
  const stresses = (eps: number): number[][] =>
    [0, 1, 2].map((j) => {
      const s = strained(cell, voigtStrain([j, j], eps));
      const r = runToEnd(relax(s, { fmax: 1e-4, maxSteps: 2000, evaluate }));
      assert.ok(r.converged, 'the ions relax in the strained cell');
      return stressGPa(evaluate({ ...s, positions: r.positions }).virial, s);
    });
  const plus = stresses(h);
  const minus = stresses(-h);
  const C = [0, 1, 2].map((i) => [0, 1, 2].map((j) => (plus[j]![i]! - minus[j]![i]!) / (2 * h)));
  const det = (m: number[][]): number =>
    m[0]![0]! * (m[1]![1]! * m[2]![2]! - m[1]![2]! * m[2]![1]!) -
    m[0]![1]! * (m[1]![0]! * m[2]![2]! - m[1]![2]! * m[2]![0]!) +
    m[0]![2]! * (m[1]![0]! * m[2]![1]! - m[1]![1]! * m[2]![0]!);
  // Σ S_ij is the sum of C's cofactors over its determinant.
  const cofactors = [0, 1, 2].flatMap((i) =>
    [0, 1, 2].map((j) => {
      const minor = C.filter((_, r) => r !== i).map((row) => row.filter((_, c) => c !== j));
      return (-1) ** (i + j) * (minor[0]![0]! * minor[1]![1]! - minor[0]![1]! * minor[1]![0]!);
    }),
  );
  return { C, bulk: det(C) / cofactors.reduce((a, b) => a + b, 0) };
}
