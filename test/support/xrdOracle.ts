/**
 * Structures with known powder patterns for the XRD tests and the bench, and pymatgen's XRDCalculator
 * (Debian's python3-pymatgen) as the oracle: undefined when pymatgen is not installed; the caller says so loudly.
 */
import type { XrdStructure } from '../../src/core/crystallography/xrd';
import type { Mat3, Vec3 } from '../../src/core/poscar/types';
import { fracToCart } from '../../src/core/poscar/structure';
import { cubicCell, DIAMOND, FCC } from './cubicCells';
import { pythonJson } from './python';

export interface FracStructure {
  name: string;
  lattice: Mat3;
  species: string[];
  frac: Vec3[];
}

export const toXrd = (s: FracStructure): XrdStructure => ({
  lattice: s.lattice,
  species: s.species,
  positions: s.frac.map((f) => fracToCart(s.lattice, f)),
});

const plus = (ps: readonly Vec3[], d: Vec3): Vec3[] => ps.map((p) => [p[0] + d[0], p[1] + d[1], p[2] + d[2]]);

/** Rock salt, a = 5.640 Å (Fm-3m). */
export const NACL: FracStructure = {
  name: 'NaCl',
  lattice: cubicCell(5.64),
  species: [...FCC.map(() => 'Na'), ...FCC.map(() => 'Cl')],
  frac: [...FCC, ...plus(FCC, [0.5, 0, 0])],
};

/** Diamond-cubic silicon, a = 5.431 Å (Fd-3m). */
export const SI: FracStructure = {
  name: 'Si',
  lattice: cubicCell(5.431),
  species: Array(8).fill('Si'),
  frac: [...DIAMOND],
};

/** Rutile TiO₂ (P4₂/mnm), a = 4.594, c = 2.959 Å, u = 0.305 (Ti at 2a, O at 4f). */
export const RUTILE: FracStructure = {
  name: 'rutile TiO2',
  lattice: [
    [4.594, 0, 0],
    [0, 4.594, 0],
    [0, 0, 2.959],
  ],
  species: ['Ti', 'Ti', 'O', 'O', 'O', 'O'],
  frac: [
    [0, 0, 0],
    [0.5, 0.5, 0.5],
    [0.305, 0.305, 0],
    [0.695, 0.695, 0],
    [0.805, 0.195, 0.5],
    [0.195, 0.805, 0.5],
  ],
};

/** A monoclinic cell (b unique, β ≠ 90°) from a, b, c and β. */
function monoclinic(a: number, b: number, c: number, betaDeg: number): Mat3 {
  const beta = (betaDeg * Math.PI) / 180;
  return [
    [a, 0, 0],
    [0, b, 0],
    [c * Math.cos(beta), 0, c * Math.sin(beta)],
  ];
}

/** The four general positions of P2₁/c (No. 14, unique axis b). */
const p21c = ([x, y, z]: Vec3): Vec3[] => [
  [x, y, z],
  [-x, y + 0.5, -z + 0.5],
  [-x, -y, -z],
  [x, -y + 0.5, z + 0.5],
];

/**
 * Baddeleyite, monoclinic ZrO₂ (P2₁/c): C. J. Howard, R. J. Hill and B. E. Reichert, Acta Cryst. B44, 116 (1988),
 * a = 5.1505, b = 5.2116, c = 5.3173 Å, β = 99.23°; Zr 0.2754 0.0395 0.2083, O1 0.0700 0.3317 0.3447,
 * O2 0.4496 0.7569 0.4792.
 */
export const BADDELEYITE: FracStructure = {
  name: 'monoclinic ZrO2',
  lattice: monoclinic(5.1505, 5.2116, 5.3173, 99.23),
  species: [...Array(4).fill('Zr'), ...Array(8).fill('O')],
  frac: [...p21c([0.2754, 0.0395, 0.2083]), ...p21c([0.07, 0.3317, 0.3447]), ...p21c([0.4496, 0.7569, 0.4792])],
};

/** A triclinic cell with no symmetry at all (P1): every reflection its own peak but for Friedel's law. */
export const TRICLINIC: FracStructure = {
  name: 'triclinic P1',
  lattice: [
    [5.3, 0, 0],
    [1.1, 6.2, 0],
    [-0.8, 1.3, 7.1],
  ],
  species: ['Ca', 'S', 'O', 'O', 'H'],
  frac: [
    [0.1, 0.2, 0.3],
    [0.45, 0.61, 0.2],
    [0.7, 0.15, 0.85],
    [0.33, 0.9, 0.55],
    [0.05, 0.5, 0.72],
  ],
};

/** Wurtzite ZnO (P6₃mc), a = 3.2498, c = 5.2066 Å, u = 0.3819: Miller–Bravais labels. */
export const ZNO: FracStructure = {
  name: 'wurtzite ZnO',
  lattice: [
    [3.2498, 0, 0],
    [-3.2498 / 2, (3.2498 * Math.sqrt(3)) / 2, 0],
    [0, 0, 5.2066],
  ],
  species: ['Zn', 'Zn', 'O', 'O'],
  frac: [
    [1 / 3, 2 / 3, 0],
    [2 / 3, 1 / 3, 0.5],
    [1 / 3, 2 / 3, 0.3819],
    [2 / 3, 1 / 3, 0.8819],
  ],
};

/** A supercell of a structure: n1 × n2 × n3 copies. */
export function supercell(s: FracStructure, [n1, n2, n3]: [number, number, number]): FracStructure {
  const frac: Vec3[] = [];
  const species: string[] = [];
  for (let i = 0; i < n1; i++)
    for (let j = 0; j < n2; j++)
      for (let k = 0; k < n3; k++)
        s.frac.forEach((f, site) => {
          frac.push([(f[0] + i) / n1, (f[1] + j) / n2, (f[2] + k) / n3]);
          species.push(s.species[site]!);
        });
  const lattice = s.lattice.map((row, r) => row.map((v) => v * [n1, n2, n3][r]!)) as Mat3;
  return { name: `${s.name} ${n1}×${n2}×${n3}`, lattice, species, frac };
}

export interface OraclePeak {
  two_theta: number;
  intensity: number;
  d: number;
  families: { hkl: number[]; multiplicity: number }[];
}

const SCRIPT = String.raw`
import json, sys
from pymatgen.core import Structure, Lattice
from pymatgen.analysis.diffraction.xrd import XRDCalculator
job = json.load(sys.stdin)
out = []
for s in job['structures']:
    st = Structure(Lattice(s['lattice']), s['species'], s['frac'])
    p = XRDCalculator(wavelength=job['wavelength']).get_pattern(st, two_theta_range=tuple(job['range']))
    out.append([{'two_theta': float(x), 'intensity': float(y), 'd': float(d),
                 'families': [{'hkl': [int(i) for i in f['hkl']], 'multiplicity': int(f['multiplicity'])} for f in h]}
                for x, y, h, d in zip(p.x, p.y, p.hkls, p.d_hkls)])
print(json.dumps(out))
`;

/** pymatgen's patterns of these structures at this wavelength, or undefined without pymatgen. */
export function pymatgenPatterns(
  structures: readonly FracStructure[],
  wavelength: number,
  range: [number, number] = [0, 90],
): OraclePeak[][] | undefined {
  return pythonJson<OraclePeak[][]>(SCRIPT, { input: { structures, wavelength, range } });
}
