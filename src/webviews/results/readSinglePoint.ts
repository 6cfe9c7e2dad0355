/** The single-point answer: energy, forces, stress (converted to GPa), and what they were computed with. */
import type { Mat3, Vec3 } from '../../core/poscar/types';
import { Fields, toNumber, toVec3Rows } from './fields';
import type { SinglePointModel } from './model';
import { atomCount, type KindContext, type Read } from './readCommon';

/** GPa per eV/Å³ */
const GPA_PER_EV_A3 = 160.21766208;

const UNITS: [RegExp, number, string][] = [
  [/^gpa$/, 1, 'GPa'],
  [/^ev\/(a|ang|angstrom)\^?3$/, GPA_PER_EV_A3, 'eV/Å³'],
  [/^(kbar|kb)$/, 0.1, 'kBar'],
  [/^bar$/, 1e-4, 'bar'],
  [/^mpa$/, 1e-3, 'MPa'],
  [/^pa$/, 1e-9, 'Pa'],
];

/** "eV/Å^3", "ev/A3", "kBar" → [factor to GPa, canonical name]; undefined for a unit not known. */
function stressUnit(text: string): [number, string] | undefined {
  const key = text.toLowerCase().replace(/\s+/g, '').replace(/å/g, 'a').replace(/³/g, '3').replace(/_per_/g, '/');
  const hit = UNITS.find(([pattern]) => pattern.test(key));
  return hit ? [hit[1], hit[2]] : undefined;
}

/** Six Voigt components (xx yy zz yz xz xy), nine numbers, or a 3×3 matrix → 3×3. */
function toStress(value: unknown): Mat3 | undefined {
  const rows = toVec3Rows(value);
  if (rows?.length === 3) return rows as Mat3;
  if (!Array.isArray(value) || (value.length !== 6 && value.length !== 9)) return undefined;
  const n = value.map(toNumber);
  if (!n.every((x): x is number => x !== undefined)) return undefined;
  if (n.length === 9)
    return [
      [n[0]!, n[1]!, n[2]!],
      [n[3]!, n[4]!, n[5]!],
      [n[6]!, n[7]!, n[8]!],
    ];
  const [xx, yy, zz, yz, xz, xy] = n as [number, number, number, number, number, number];
  return [
    [xx, xy, xz],
    [xy, yy, yz],
    [xz, yz, zz],
  ];
}

const STRESS_FIELDS: [string, string | undefined][] = [
  ['stress', undefined],
  ['stress_GPa', 'GPa'],
  ['stress_gpa', 'GPa'],
  ['stress_eV_per_A3', 'eV/Å³'],
  ['stress_ev_per_a3', 'eV/Å³'],
  ['stress_kbar', 'kBar'],
  ['stress_kBar', 'kBar'],
  ['virial_stress', undefined],
];

function readStress(f: Fields): Pick<SinglePointModel, 'stress' | 'stressUnit'> {
  const named = f.text('stress_unit', 'stress_units', 'unit_stress');
  for (const [name, implied] of STRESS_FIELDS) {
    if (!f.has(name)) continue;
    const unitName = implied ?? named;
    const unit = unitName ? stressUnit(unitName) : ([1, 'GPa (assumed: no stress_unit)'] as const);
    const matrix = toStress(f.peek(name));
    if (!unit || !matrix) {
      f.warnings.push(
        unit
          ? f.t('{0} is neither six Voigt components nor a 3×3 matrix: it is under Other fields.', name)
          : f.t('Stress unit "{0}" is not known: the stress is under Other fields.', unitName ?? ''),
      );
      continue;
    }
    f.use(name);
    return { stress: matrix.map((row) => row.map((x) => x * unit[0])) as Mat3, stressUnit: unit[1] };
  }
  return {};
}

const magnitude = (v: Vec3): number => Math.hypot(v[0], v[1], v[2]);

export function readSinglePoint(f: Fields, context: KindContext): Read<SinglePointModel> {
  const energy = f.number('energy_eV', 'energy', 'total_energy', 'energy_ev', 'total_energy_eV');
  const forces = f.read(
    ['forces_eV_per_A', 'forces', 'forces_ev_per_a', 'forces_eV_per_Ang'],
    toVec3Rows,
    f.t('a list of [fx, fy, fz] rows'),
  );
  const atoms = atomCount(f.warnings, context, [['forces', forces?.length, f.t('rows')]]);
  const given = f.number('energy_per_atom_eV', 'energy_per_atom', 'energy_per_atom_ev');
  const perAtom = given ?? (energy !== undefined && atoms ? energy / atoms : undefined);
  return {
    kind: 'singlePoint',
    energy,
    forces,
    energyPerAtom: perAtom,
    energyPerAtomComputed: given === undefined && perAtom !== undefined ? true : undefined,
    maxForce:
      f.number('max_force', 'max_force_eV_per_A', 'fmax') ??
      (forces?.length ? forces.reduce((m, v) => Math.max(m, magnitude(v)), 0) : undefined),
    ...readStress(f),
  };
}
