/**
 * POSCARs written by ASE (Debian's python3-ase), an independent writer, for the parser tests: bulk
 * crystals of every lattice system ASE builds, the G2 molecules in a box, and surface slabs with fixed
 * atoms (Selective dynamics), in VASP 5 and VASP 4 form, Direct and Cartesian. Undefined when ASE is
 * not installed; the caller says so loudly.
 */
import { pythonJson } from './python';

export interface AseStructure {
  name: string;
  atoms: number;
  poscar: string;
}

const SCRIPT = String.raw`
import io, json, random
from ase.build import bulk, molecule, fcc111, bcc110, hcp0001
from ase.collections import g2
from ase.constraints import FixAtoms
random.seed(5)
out = []
def add(name, atoms):
    buf = io.StringIO()
    direct, vasp5 = random.random() < 0.5, random.random() < 0.7
    atoms.write(buf, format='vasp', direct=direct, vasp5=vasp5)
    out.append({'name': f'{name} ({"Direct" if direct else "Cartesian"}, {"VASP 5" if vasp5 else "VASP 4"})', 'atoms': len(atoms), 'poscar': buf.getvalue()})
for spec in [('Si', 'diamond', 5.43), ('C', 'diamond', 3.57), ('Cu', 'fcc', 3.61), ('Fe', 'bcc', 2.87), ('W', 'bcc', 3.16),
             ('Mg', 'hcp', 3.21), ('Ti', 'hcp', 2.95), ('NaCl', 'rocksalt', 5.64), ('GaAs', 'zincblende', 5.65), ('CsCl', 'cesiumchloride', 4.12)]:
    for cubic in (False, True):
        try: add(f'{spec[0]} {spec[1]}{" cubic" if cubic else ""}', bulk(spec[0], spec[1], a=spec[2], cubic=cubic).repeat((2, 1, 1)))
        except Exception: pass
for name in sorted(g2.names)[:60]:
    m = molecule(name); m.center(vacuum=4.0); add(f'molecule {name}', m)
for name, slab in [('Cu(111)', fcc111('Cu', size=(2, 2, 4), vacuum=8.0)), ('Fe(110)', bcc110('Fe', size=(2, 2, 3), vacuum=8.0)), ('Mg(0001)', hcp0001('Mg', size=(2, 2, 3), vacuum=8.0))]:
    slab.set_constraint(FixAtoms(indices=[a.index for a in slab if a.tag > 1])); add(f'slab {name}', slab)
print(json.dumps(out))
`;

let cached: AseStructure[] | null | undefined;

export function aseStructures(): AseStructure[] | undefined {
  if (cached === undefined) {
    cached = pythonJson<AseStructure[]>(SCRIPT, { timeout: 60_000 }) ?? null;
  }
  return cached ?? undefined;
}
