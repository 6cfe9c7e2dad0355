/**
 * pymatgen (Debian's python3-pymatgen, with spglib) as the oracle for the Setyawan-Curtarolo k-paths: for each
 * cell, spglib's space group and standard conventional cell (as spglib standardizes it, and rotated back into the
 * cell's own frame), and pymatgen's KPathSetyawanCurtarolo (variant, points, path, standard primitive cell); and
 * KPOINTS texts read back by pymatgen's Kpoints.from_string; and spglib's space-group types. One subprocess, JSON
 * in and out. Undefined when pymatgen is not installed; the caller says so loudly.
 */
import { pythonJson } from './python';
import type { Mat3, Vec3 } from '../../src/core/poscar/types';

const SCRIPT = String.raw`
import json, sys, warnings
import numpy as np
warnings.simplefilter('ignore')
from pymatgen.core import Structure, Lattice
from pymatgen.symmetry.analyzer import SpacegroupAnalyzer
from pymatgen.symmetry.kpath import KPathSetyawanCurtarolo
from pymatgen.io.vasp.inputs import Kpoints
import spglib
req = json.load(sys.stdin)
out = {'cases': [], 'kpoints': [], 'groups': []}
for case in req['cases']:
    s = Structure(Lattice(case['lattice']), ['Cu'], [[0, 0, 0]])
    d = SpacegroupAnalyzer(s, symprec=1e-3).get_symmetry_dataset()
    try:
        kp = KPathSetyawanCurtarolo(s, symprec=1e-3)
        k = {'variant': kp.name, 'points': {l: [float(x) for x in v] for l, v in kp.kpath['kpoints'].items()},
             'path': kp.kpath['path'], 'prim': kp.prim.lattice.matrix.tolist()}
    except Exception as e:
        k = {'error': repr(e)}
    std = np.array(d['std_lattice'])
    out['cases'].append({'name': case['name'], 'number': int(d['number']), 'std_lattice': std.tolist(),
                         'conventional': (std @ np.array(d['std_rotation_matrix'])).tolist(), **k})
for text in req['kpoints']:
    kp = Kpoints.from_string(text)
    out['kpoints'].append({'style': kp.style.name, 'coord_type': kp.coord_type, 'num_kpts': kp.num_kpts,
                           'kpts': [[float(x) for x in p] for p in kp.kpts], 'labels': kp.labels})
for hall in range(1, 531):
    t = spglib.get_spacegroup_type(hall)
    out['groups'].append([int(t['number']), t['international_short']])
print(json.dumps(out))
`;

export interface PymatgenCase {
  name: string;
  number: number;
  std_lattice: Mat3;
  conventional: Mat3;
  variant?: string;
  points?: Record<string, Vec3>;
  path?: string[][];
  prim?: Mat3;
  error?: string;
}

export interface PymatgenAnswer {
  cases: PymatgenCase[];
  kpoints: { style: string; coord_type: string; num_kpts: number; kpts: Vec3[]; labels: string[] }[];
  /** [number, international short symbol] for every Hall setting. */
  groups: [number, string][];
}

export function askPymatgen(cases: { name: string; lattice: Mat3 }[], kpoints: string[]): PymatgenAnswer | undefined {
  return pythonJson<PymatgenAnswer>(SCRIPT, { input: { cases, kpoints } });
}
