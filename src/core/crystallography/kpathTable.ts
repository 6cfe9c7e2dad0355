/**
 * The 25 lattice variants of Setyawan & Curtarolo, "High-throughput electronic band structure calculations:
 * challenges and tools", Comput. Mater. Sci. 49, 299–312 (2010), doi:10.1016/j.commatsci.2010.05.010 — the
 * convention of AFLOW and the Materials Project — as data: each variant's special points (fractional coordinates
 * of the reciprocal basis of SC's standard primitive cell, their Tables 2–23), the parameters (η, ν, ζ, …) those
 * points are written with, and the default path. Labels are written as SC print them ('Γ', 'Σ₁', 'Z₁'). Pure.
 *
 * The parameters take the SC conventional cell: a, b, c (Å) and α (radians; RHL: the rhombohedral angle of the
 * primitive cell; MCL and MCLC: the angle between b and c, below 90°).
 */
import type { Vec3 } from '../poscar/types';

export type Variant =
  | 'CUB'
  | 'FCC'
  | 'BCC'
  | 'TET'
  | 'BCT1'
  | 'BCT2'
  | 'ORC'
  | 'ORCF1'
  | 'ORCF2'
  | 'ORCF3'
  | 'ORCI'
  | 'ORCC'
  | 'HEX'
  | 'RHL1'
  | 'RHL2'
  | 'MCL'
  | 'MCLC1'
  | 'MCLC2'
  | 'MCLC3'
  | 'MCLC4'
  | 'MCLC5'
  | 'TRI1a'
  | 'TRI1b'
  | 'TRI2a'
  | 'TRI2b';

/** The SC conventional cell's lengths (Å) and its angle α (radians). */
export interface CellParameters {
  a: number;
  b: number;
  c: number;
  alpha: number;
}

export interface VariantTable {
  /** SC's name of the lattice, e.g. 'Face-centred cubic'. */
  lattice: string;
  /** The special points' parameters by SC's names (η, ν, ζ, …), as functions of the cell. */
  parameters: (p: CellParameters) => Record<string, number>;
  points: (p: CellParameters, parameters: Record<string, number>) => Record<string, Vec3>;
  /** Branches of the default path; a branch is a list of labels joined by straight segments. */
  path: string[][];
}

const G: Vec3 = [0, 0, 0];
const none = (): Record<string, number> => ({});
const h = 0.5;
const q = 0.25;

// ---- cubic, tetragonal --------------------------------------------------------------------------------------

const CUB: VariantTable = {
  lattice: 'Cubic',
  parameters: none,
  points: () => ({ Γ: G, M: [h, h, 0], R: [h, h, h], X: [0, h, 0] }),
  path: [
    ['Γ', 'X', 'M', 'Γ', 'R', 'X'],
    ['M', 'R'],
  ],
};

const FCC: VariantTable = {
  lattice: 'Face-centred cubic',
  parameters: none,
  points: () => ({ Γ: G, K: [3 / 8, 3 / 8, 3 / 4], L: [h, h, h], U: [5 / 8, q, 5 / 8], W: [h, q, 3 / 4], X: [h, 0, h] }),
  path: [
    ['Γ', 'X', 'W', 'K', 'Γ', 'L', 'U', 'W', 'L', 'K'],
    ['U', 'X'],
  ],
};

const BCC: VariantTable = {
  lattice: 'Body-centred cubic',
  parameters: none,
  points: () => ({ Γ: G, H: [h, -h, h], P: [q, q, q], N: [0, 0, h] }),
  path: [
    ['Γ', 'H', 'N', 'Γ', 'P', 'H'],
    ['P', 'N'],
  ],
};

const TET: VariantTable = {
  lattice: 'Tetragonal',
  parameters: none,
  points: () => ({ Γ: G, A: [h, h, h], M: [h, h, 0], R: [0, h, h], X: [0, h, 0], Z: [0, 0, h] }),
  path: [
    ['Γ', 'X', 'M', 'Γ', 'Z', 'R', 'A', 'Z'],
    ['X', 'R'],
    ['M', 'A'],
  ],
};

const BCT1: VariantTable = {
  lattice: 'Body-centred tetragonal, c < a',
  parameters: ({ a, c }) => ({ η: (1 + (c * c) / (a * a)) / 4 }),
  points: (_p, { η }) => ({
    Γ: G,
    M: [-h, h, h],
    N: [0, h, 0],
    P: [q, q, q],
    X: [0, 0, h],
    Z: [η!, η!, -η!],
    'Z₁': [-η!, 1 - η!, η!],
  }),
  path: [
    ['Γ', 'X', 'M', 'Γ', 'Z', 'P', 'N', 'Z₁', 'M'],
    ['X', 'P'],
  ],
};

const BCT2: VariantTable = {
  lattice: 'Body-centred tetragonal, c > a',
  parameters: ({ a, c }) => ({ η: (1 + (a * a) / (c * c)) / 4, ζ: (a * a) / (2 * c * c) }),
  points: (_p, { η, ζ }) => ({
    Γ: G,
    N: [0, h, 0],
    P: [q, q, q],
    Σ: [-η!, η!, η!],
    'Σ₁': [η!, 1 - η!, -η!],
    X: [0, 0, h],
    Y: [-ζ!, ζ!, h],
    'Y₁': [h, h, -ζ!],
    Z: [h, h, -h],
  }),
  path: [
    ['Γ', 'X', 'Y', 'Σ', 'Γ', 'Z', 'Σ₁', 'N', 'P', 'Y₁', 'Z'],
    ['X', 'P'],
  ],
};

// ---- orthorhombic ------------------------------------------------------------------------------------------

const ORC: VariantTable = {
  lattice: 'Orthorhombic',
  parameters: none,
  points: () => ({ Γ: G, R: [h, h, h], S: [h, h, 0], T: [0, h, h], U: [h, 0, h], X: [h, 0, 0], Y: [0, h, 0], Z: [0, 0, h] }),
  path: [
    ['Γ', 'X', 'S', 'Y', 'Γ', 'Z', 'U', 'R', 'T', 'Z'],
    ['Y', 'T'],
    ['U', 'X'],
    ['S', 'R'],
  ],
};

const orcf13Parameters = ({ a, b, c }: CellParameters): Record<string, number> => ({
  ζ: (1 + (a * a) / (b * b) - (a * a) / (c * c)) / 4,
  η: (1 + (a * a) / (b * b) + (a * a) / (c * c)) / 4,
});
const orcf13Points = (_p: CellParameters, { ζ, η }: Record<string, number>): Record<string, Vec3> => ({
  Γ: G,
  A: [h, h + ζ!, ζ!],
  'A₁': [h, h - ζ!, 1 - ζ!],
  L: [h, h, h],
  T: [1, h, h],
  X: [0, η!, η!],
  'X₁': [1, 1 - η!, 1 - η!],
  Y: [h, 0, h],
  Z: [h, h, 0],
});

const ORCF1: VariantTable = {
  lattice: 'Face-centred orthorhombic, 1/a² > 1/b² + 1/c²',
  parameters: orcf13Parameters,
  points: orcf13Points,
  path: [
    ['Γ', 'Y', 'T', 'Z', 'Γ', 'X', 'A₁', 'Y'],
    ['T', 'X₁'],
    ['X', 'A', 'Z'],
    ['L', 'Γ'],
  ],
};

const ORCF2: VariantTable = {
  lattice: 'Face-centred orthorhombic, 1/a² < 1/b² + 1/c²',
  parameters: ({ a, b, c }) => ({
    η: (1 + (a * a) / (b * b) - (a * a) / (c * c)) / 4,
    φ: (1 + (c * c) / (b * b) - (c * c) / (a * a)) / 4,
    δ: (1 + (b * b) / (a * a) - (b * b) / (c * c)) / 4,
  }),
  points: (_p, { η, φ, δ }) => ({
    Γ: G,
    C: [h, h - η!, 1 - η!],
    'C₁': [h, h + η!, η!],
    D: [h - δ!, h, 1 - δ!],
    'D₁': [h + δ!, h, δ!],
    L: [h, h, h],
    H: [1 - φ!, h - φ!, h],
    'H₁': [φ!, h + φ!, h],
    X: [0, h, h],
    Y: [h, 0, h],
    Z: [h, h, 0],
  }),
  path: [
    ['Γ', 'Y', 'C', 'D', 'X', 'Γ', 'Z', 'D₁', 'H', 'C'],
    ['C₁', 'Z'],
    ['X', 'H₁'],
    ['H', 'Y'],
    ['L', 'Γ'],
  ],
};

const ORCF3: VariantTable = {
  lattice: 'Face-centred orthorhombic, 1/a² = 1/b² + 1/c²',
  parameters: orcf13Parameters,
  points: orcf13Points,
  path: [
    ['Γ', 'Y', 'T', 'Z', 'Γ', 'X', 'A₁', 'Y'],
    ['X', 'A', 'Z'],
    ['L', 'Γ'],
  ],
};

const ORCI: VariantTable = {
  lattice: 'Body-centred orthorhombic',
  parameters: ({ a, b, c }) => ({
    ζ: (1 + (a * a) / (c * c)) / 4,
    η: (1 + (b * b) / (c * c)) / 4,
    δ: (b * b - a * a) / (4 * c * c),
    μ: (a * a + b * b) / (4 * c * c),
  }),
  points: (_p, { ζ, η, δ, μ }) => ({
    Γ: G,
    L: [-μ!, μ!, h - δ!],
    'L₁': [μ!, -μ!, h + δ!],
    'L₂': [h - δ!, h + δ!, -μ!],
    R: [0, h, 0],
    S: [h, 0, 0],
    T: [0, 0, h],
    W: [q, q, q],
    X: [-ζ!, ζ!, ζ!],
    'X₁': [ζ!, 1 - ζ!, -ζ!],
    Y: [η!, -η!, η!],
    'Y₁': [1 - η!, η!, -η!],
    Z: [h, h, -h],
  }),
  path: [
    ['Γ', 'X', 'L', 'T', 'W', 'R', 'X₁', 'Z', 'Γ', 'Y', 'S', 'W'],
    ['L₁', 'Y'],
    ['Y₁', 'Z'],
  ],
};

const ORCC: VariantTable = {
  lattice: 'C-centred orthorhombic',
  parameters: ({ a, b }) => ({ ζ: (1 + (a * a) / (b * b)) / 4 }),
  points: (_p, { ζ }) => ({
    Γ: G,
    A: [ζ!, ζ!, h],
    'A₁': [-ζ!, 1 - ζ!, h],
    R: [0, h, h],
    S: [0, h, 0],
    T: [-h, h, h],
    X: [ζ!, ζ!, 0],
    'X₁': [-ζ!, 1 - ζ!, 0],
    Y: [-h, h, 0],
    Z: [0, 0, h],
  }),
  path: [
    ['Γ', 'X', 'S', 'R', 'A', 'Z', 'Γ', 'Y', 'X₁', 'A₁', 'T', 'Y'],
    ['Z', 'T'],
  ],
};

// ---- hexagonal, rhombohedral -------------------------------------------------------------------------------

const HEX: VariantTable = {
  lattice: 'Hexagonal',
  parameters: none,
  points: () => ({ Γ: G, A: [0, 0, h], H: [1 / 3, 1 / 3, h], K: [1 / 3, 1 / 3, 0], L: [h, 0, h], M: [h, 0, 0] }),
  path: [
    ['Γ', 'M', 'K', 'Γ', 'A', 'L', 'H', 'A'],
    ['L', 'M'],
    ['K', 'H'],
  ],
};

const RHL1: VariantTable = {
  lattice: 'Rhombohedral, α < 90°',
  parameters: ({ alpha }) => {
    const η = (1 + 4 * Math.cos(alpha)) / (2 + 4 * Math.cos(alpha));
    return { η, ν: 3 / 4 - η / 2 };
  },
  points: (_p, { η, ν }) => ({
    Γ: G,
    B: [η!, h, 1 - η!],
    'B₁': [h, 1 - η!, η! - 1],
    F: [h, h, 0],
    L: [h, 0, 0],
    'L₁': [0, 0, -h],
    P: [η!, ν!, ν!],
    'P₁': [1 - ν!, 1 - ν!, 1 - η!],
    'P₂': [ν!, ν!, η! - 1],
    Q: [1 - ν!, ν!, 0],
    X: [ν!, 0, -ν!],
    Z: [h, h, h],
  }),
  path: [
    ['Γ', 'L', 'B₁'],
    ['B', 'Z', 'Γ', 'X'],
    ['Q', 'F', 'P₁', 'Z'],
    ['L', 'P'],
  ],
};

const RHL2: VariantTable = {
  lattice: 'Rhombohedral, α > 90°',
  parameters: ({ alpha }) => {
    const η = 1 / (2 * Math.tan(alpha / 2) ** 2);
    return { η, ν: 3 / 4 - η / 2 };
  },
  points: (_p, { η, ν }) => ({
    Γ: G,
    F: [h, -h, 0],
    L: [h, 0, 0],
    P: [1 - ν!, -ν!, 1 - ν!],
    'P₁': [ν!, ν! - 1, ν! - 1],
    Q: [η!, η!, η!],
    'Q₁': [1 - η!, -η!, -η!],
    Z: [h, -h, h],
  }),
  path: [['Γ', 'P', 'Z', 'Q', 'Γ', 'F', 'P₁', 'Q₁', 'L', 'Z']],
};

// ---- monoclinic --------------------------------------------------------------------------------------------

const MCL: VariantTable = {
  lattice: 'Monoclinic',
  parameters: ({ b, c, alpha }) => {
    const η = (1 - (b * Math.cos(alpha)) / c) / (2 * Math.sin(alpha) ** 2);
    return { η, ν: h - (η * c * Math.cos(alpha)) / b };
  },
  points: (_p, { η, ν }) => ({
    Γ: G,
    A: [h, h, 0],
    C: [0, h, h],
    D: [h, 0, h],
    'D₁': [h, 0, -h],
    E: [h, h, h],
    H: [0, η!, 1 - ν!],
    'H₁': [0, 1 - η!, ν!],
    'H₂': [0, η!, -ν!],
    M: [h, η!, 1 - ν!],
    'M₁': [h, 1 - η!, ν!],
    'M₂': [h, η!, -ν!],
    X: [0, h, 0],
    Y: [0, 0, h],
    'Y₁': [0, 0, -h],
    Z: [h, 0, 0],
  }),
  path: [
    ['Γ', 'Y', 'H', 'C', 'E', 'M₁', 'A', 'X', 'H₁'],
    ['M', 'D', 'Z'],
    ['Y', 'D'],
  ],
};

const mclc12Parameters = ({ a, b, c, alpha }: CellParameters): Record<string, number> => {
  const ζ = (2 - (b * Math.cos(alpha)) / c) / (4 * Math.sin(alpha) ** 2);
  const ψ = 3 / 4 - (a * a) / (4 * b * b * Math.sin(alpha) ** 2);
  return { ζ, η: h + (2 * ζ * c * Math.cos(alpha)) / b, ψ, φ: ψ + ((3 / 4 - ψ) * b * Math.cos(alpha)) / c };
};
const mclc12Points = (_p: CellParameters, { ζ, η, ψ, φ }: Record<string, number>): Record<string, Vec3> => ({
  Γ: G,
  N: [h, 0, 0],
  'N₁': [0, -h, 0],
  F: [1 - ζ!, 1 - ζ!, 1 - η!],
  'F₁': [ζ!, ζ!, η!],
  'F₂': [-ζ!, -ζ!, 1 - η!],
  I: [φ!, 1 - φ!, h],
  'I₁': [1 - φ!, φ! - 1, h],
  L: [h, h, h],
  M: [h, 0, h],
  X: [1 - ψ!, ψ! - 1, 0],
  'X₁': [ψ!, 1 - ψ!, 0],
  'X₂': [ψ! - 1, -ψ!, 0],
  Y: [h, h, 0],
  'Y₁': [-h, -h, 0],
  Z: [0, 0, h],
});

const MCLC1: VariantTable = {
  lattice: 'C-centred monoclinic, k_γ > 90°',
  parameters: mclc12Parameters,
  points: mclc12Points,
  path: [
    ['Γ', 'Y', 'F', 'L', 'I'],
    ['I₁', 'Z', 'F₁'],
    ['Y', 'X₁'],
    ['X', 'Γ', 'N'],
    ['M', 'Γ'],
  ],
};

const MCLC2: VariantTable = {
  lattice: 'C-centred monoclinic, k_γ = 90°',
  parameters: mclc12Parameters,
  points: (p, parameters) => {
    const { ζ, η } = parameters;
    return { ...mclc12Points(p, parameters), 'F₃': [1 - ζ!, -ζ!, 1 - η!] };
  },
  path: [
    ['Γ', 'Y', 'F', 'L', 'I'],
    ['I₁', 'Z', 'F₁'],
    ['N', 'Γ', 'M'],
  ],
};

const mclc34Parameters = ({ a, b, c, alpha }: CellParameters): Record<string, number> => {
  const μ = (1 + (b * b) / (a * a)) / 4;
  const δ = (b * c * Math.cos(alpha)) / (2 * a * a);
  const ζ = μ - 1 / 4 + (1 - (b * Math.cos(alpha)) / c) / (4 * Math.sin(alpha) ** 2);
  const η = h + (2 * ζ * c * Math.cos(alpha)) / b;
  return { μ, δ, ζ, η, φ: 1 + ζ - 2 * μ, ψ: η - 2 * δ };
};
const mclc34Points = (_p: CellParameters, { μ, δ, ζ, η, φ, ψ }: Record<string, number>): Record<string, Vec3> => ({
  Γ: G,
  F: [1 - φ!, 1 - φ!, 1 - ψ!],
  'F₁': [φ!, φ! - 1, ψ!],
  'F₂': [1 - φ!, -φ!, 1 - ψ!],
  H: [ζ!, ζ!, η!],
  'H₁': [1 - ζ!, -ζ!, 1 - η!],
  'H₂': [-ζ!, -ζ!, 1 - η!],
  I: [h, -h, h],
  M: [h, 0, h],
  N: [h, 0, 0],
  'N₁': [0, -h, 0],
  X: [h, -h, 0],
  Y: [μ!, μ!, δ!],
  'Y₁': [1 - μ!, -μ!, -δ!],
  'Y₂': [-μ!, -μ!, -δ!],
  'Y₃': [μ!, μ! - 1, δ!],
  Z: [0, 0, h],
});

const MCLC3: VariantTable = {
  lattice: 'C-centred monoclinic, k_γ < 90°, b cos α/c + b² sin² α/a² < 1',
  parameters: mclc34Parameters,
  points: mclc34Points,
  path: [
    ['Γ', 'Y', 'F', 'H', 'Z', 'I', 'F₁'],
    ['H₁', 'Y₁', 'X', 'Γ', 'N'],
    ['M', 'Γ'],
  ],
};

const MCLC4: VariantTable = {
  lattice: 'C-centred monoclinic, k_γ < 90°, b cos α/c + b² sin² α/a² = 1',
  parameters: mclc34Parameters,
  points: mclc34Points,
  path: [
    ['Γ', 'Y', 'F', 'H', 'Z', 'I'],
    ['H₁', 'Y₁', 'X', 'Γ', 'N'],
    ['M', 'Γ'],
  ],
};

const MCLC5: VariantTable = {
  lattice: 'C-centred monoclinic, k_γ < 90°, b cos α/c + b² sin² α/a² > 1',
  parameters: ({ a, b, c, alpha }) => {
    const cos = Math.cos(alpha);
    const sin2 = Math.sin(alpha) ** 2;
    const ζ = ((b * b) / (a * a) + (1 - (b * cos) / c) / sin2) / 4;
    const η = h + (2 * ζ * c * cos) / b;
    const μ = η / 2 + (b * b) / (4 * a * a) - (b * c * cos) / (2 * a * a);
    const ν = 2 * μ - ζ;
    const ω = ((4 * ν - 1 - (b * b * sin2) / (a * a)) * c) / (2 * b * cos);
    return { ζ, η, μ, ν, ω, δ: (ζ * c * cos) / b + ω / 2 - 1 / 4, ρ: 1 - (ζ * a * a) / (b * b) };
  },
  points: (_p, { ζ, η, μ, ν, ω, δ, ρ }) => ({
    Γ: G,
    F: [ν!, ν!, ω!],
    'F₁': [1 - ν!, 1 - ν!, 1 - ω!],
    'F₂': [ν!, ν! - 1, ω!],
    H: [ζ!, ζ!, η!],
    'H₁': [1 - ζ!, -ζ!, 1 - η!],
    'H₂': [-ζ!, -ζ!, 1 - η!],
    I: [ρ!, 1 - ρ!, h],
    'I₁': [1 - ρ!, ρ! - 1, h],
    L: [h, h, h],
    M: [h, 0, h],
    N: [h, 0, 0],
    'N₁': [0, -h, 0],
    X: [h, -h, 0],
    Y: [μ!, μ!, δ!],
    'Y₁': [1 - μ!, -μ!, -δ!],
    'Y₂': [-μ!, -μ!, -δ!],
    'Y₃': [μ!, μ! - 1, δ!],
    Z: [0, 0, h],
  }),
  path: [
    ['Γ', 'Y', 'F', 'L', 'I'],
    ['I₁', 'Z', 'H', 'F₁'],
    ['H₁', 'Y₁', 'X', 'Γ', 'N'],
    ['M', 'Γ'],
  ],
};

// ---- triclinic ---------------------------------------------------------------------------------------------

const TRI_PATH = [
  ['X', 'Γ', 'Y'],
  ['L', 'Γ', 'Z'],
  ['N', 'Γ', 'M'],
  ['R', 'Γ'],
];
const triA = (): Record<string, Vec3> => ({
  Γ: G,
  L: [h, h, 0],
  M: [0, h, h],
  N: [h, 0, h],
  R: [h, h, h],
  X: [h, 0, 0],
  Y: [0, h, 0],
  Z: [0, 0, h],
});
const triB = (): Record<string, Vec3> => ({
  Γ: G,
  L: [h, -h, 0],
  M: [0, 0, h],
  N: [-h, -h, h],
  R: [0, -h, h],
  X: [0, -h, 0],
  Y: [h, 0, 0],
  Z: [-h, 0, h],
});

export const VARIANTS: Record<Variant, VariantTable> = {
  CUB,
  FCC,
  BCC,
  TET,
  BCT1,
  BCT2,
  ORC,
  ORCF1,
  ORCF2,
  ORCF3,
  ORCI,
  ORCC,
  HEX,
  RHL1,
  RHL2,
  MCL,
  MCLC1,
  MCLC2,
  MCLC3,
  MCLC4,
  MCLC5,
  TRI1a: { lattice: 'Triclinic, k_α > 90°, k_β > 90°, k_γ > 90°, k_γ the smallest', parameters: none, points: triA, path: TRI_PATH },
  TRI2a: { lattice: 'Triclinic, k_α > 90°, k_β > 90°, k_γ = 90°', parameters: none, points: triA, path: TRI_PATH },
  TRI1b: { lattice: 'Triclinic, k_α < 90°, k_β < 90°, k_γ < 90°, k_γ the largest', parameters: none, points: triB, path: TRI_PATH },
  TRI2b: { lattice: 'Triclinic, k_α < 90°, k_β < 90°, k_γ = 90°', parameters: none, points: triB, path: TRI_PATH },
};
