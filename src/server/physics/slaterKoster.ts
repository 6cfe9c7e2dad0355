/**
 * The Slater–Koster two-centre form (J. C. Slater and G. F. Koster, Phys. Rev. 94, 1498 (1954)) for s, p (and,
 * when asked, s*) orbitals, shared by the band models that use it (sp3s.ts, harrison.ts): the block of one bond
 * from its two-centre integrals and direction cosines, and the Bloch sum of all bonds into the real embedding of
 * H(k) (tightbinding.ts). Orbitals per atom in the order s, px, py, pz[, s*]. Pure.
 */
import { combine, dot, reciprocal, type Cell, type Vec3 } from './cell';
import { addHermitian } from './tightbinding';

/** Two-centre integrals of one bond from atom i to atom j (eV). */
export interface TwoCentre {
  ss: number;
  /** (s on i, p on j) σ and (p on i, s on j) σ: the same for like atoms, not for unlike ones. */
  spOut: number;
  spIn: number;
  ppSigma: number;
  ppPi: number;
  /** (s* on i, p on j) σ and (p on i, s* on j) σ, for a five-orbital basis. */
  xpOut?: number;
  xpIn?: number;
}

/** One bond's block ⟨iα|H|jβ⟩ and its vector d = r_j + R − r_i (Å). */
export interface Bond {
  i: number;
  j: number;
  d: Vec3;
  block: number[][];
}

/** The block for a bond along the unit vector (l, m, n) from i to j, `orbitals` (4 or 5) square. */
export function slaterKosterBlock(c: TwoCentre, dir: Vec3, orbitals: number): number[][] {
  const b = Array.from({ length: orbitals }, () => new Array<number>(orbitals).fill(0));
  b[0]![0] = c.ss;
  for (let a = 0; a < 3; a++) {
    b[0]![1 + a] = dir[a]! * c.spOut;
    b[1 + a]![0] = -dir[a]! * c.spIn;
    if (orbitals === 5) {
      b[4]![1 + a] = dir[a]! * (c.xpOut ?? 0);
      b[1 + a]![4] = -dir[a]! * (c.xpIn ?? 0);
    }
    for (let q = 0; q < 3; q++) b[1 + a]![1 + q] = dir[a]! * dir[q]! * (c.ppSigma - c.ppPi) + (a === q ? c.ppPi : 0);
  }
  return b;
}

/**
 * H(k) for k in fractional coordinates of the reciprocal lattice, as the real symmetric embedding of the complex
 * Hermitian matrix: the on-site energies of each atom's orbitals on the diagonal, every bond's block times
 * e^{ik·d} with its Hermitian partner. Bonds come once each (as the neighbour list gives them).
 */
export function slaterKosterHamiltonian(
  cell: Cell,
  orbitals: number,
  onsite: number[][],
  bonds: readonly Bond[],
): (kFrac: Vec3) => number[][] {
  const n = cell.symbols.length * orbitals;
  const recip = reciprocal(cell.lattice);
  return (f) => {
    const m = Array.from({ length: 2 * n }, () => new Array<number>(2 * n).fill(0));
    onsite.forEach((levels, i) =>
      levels.forEach((e, o) => {
        m[i * orbitals + o]![i * orbitals + o] = e;
        m[n + i * orbitals + o]![n + i * orbitals + o] = e;
      }),
    );
    const k = combine(f, recip);
    for (const bond of bonds) {
      const phase = dot(k, bond.d);
      const cos = Math.cos(phase);
      const sin = Math.sin(phase);
      for (let a = 0; a < orbitals; a++) {
        for (let b = 0; b < orbitals; b++) {
          const t = bond.block[a]![b]!;
          if (t !== 0) addHermitian(m, n, bond.i * orbitals + a, bond.j * orbitals + b, t * cos, t * sin);
        }
      }
    }
    return m;
  };
}
