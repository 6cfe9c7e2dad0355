/**
 * The molecular-dynamics answer: energies and temperature per step against time. The per-step numbers
 * come as parallel lists (`energies: {total, kinetic, potential}` or top-level `total_energy` …) or as
 * a list of per-step objects.
 */
import { isRecord, type Rec } from '../../core/util/guards';
import { Fields, MAX_POINTS, toNumber } from './fields';
import type { MdModel, Series } from './model';
import { analyseTrajectory } from './readTrajectory';
import { atomCount, POSCAR_NAMES, toTrajectory, TRAJECTORY_NAMES, type KindContext, type Read } from './readCommon';

const COLUMNS = {
  total: ['total', 'total_energy', 'etot', 'e_total', 'energy'],
  kinetic: ['kinetic', 'kinetic_energy', 'ekin', 'e_kin'],
  potential: ['potential', 'potential_energy', 'epot', 'e_pot'],
  temperature: ['temperature', 'temp', 'T'],
  time: ['time_fs', 'time', 't'],
  step: ['step'],
};
type Column = keyof typeof COLUMNS;
type Columns = Partial<Record<Column, Series>>;

/** Where a list of per-step objects may be; "answer" is a whole answer that is such a list. */
const RECORD_LISTS = ['answer', 'energies', 'steps', 'log', 'thermo', 'data', 'history'];
const KNOWN = new Set(Object.values(COLUMNS).flat());

const isStepList = (value: unknown): value is Rec[] =>
  Array.isArray(value) && value.length > 0 && value.every(isRecord) && value.some((r) => Object.keys(r).some((k) => KNOWN.has(k)));

function fromRecords(f: Fields): Columns | undefined {
  const name = RECORD_LISTS.find((n) => isStepList(f.peek(n)));
  if (!name) return undefined;
  const records = f.peek(name) as Rec[];
  const columns: Record<Column, Series> = { total: [], kinetic: [], potential: [], temperature: [], time: [], step: [] };
  const rest = records.slice(0, MAX_POINTS).map((record) => {
    const fields = new Fields(record, []);
    for (const column of Object.keys(columns) as Column[]) columns[column].push(fields.read(COLUMNS[column], toNumber) ?? null);
    return fields.extra;
  });
  const keptRest = rest.some((r) => Object.keys(r).length > 0);
  if (rest.some((r) => Object.keys(r).some((k) => KNOWN.has(k))))
    f.warnings.push(f.t('{0}: some per-step values are not numbers: they are under Other fields.', name));
  if (keptRest || records.length > MAX_POINTS) f.leave(name, [...(keptRest ? rest : []), ...records.slice(MAX_POINTS)]);
  else f.use(name);
  if (records.length > MAX_POINTS)
    f.warnings.push(
      f.t('{0} has {1} steps: the first {2} are shown.', name, records.length.toLocaleString('en-US'), MAX_POINTS.toLocaleString('en-US')),
    );
  return Object.fromEntries(Object.entries(columns).filter(([, s]) => s.some((x) => x !== null)));
}

function fromLists(f: Fields): Columns {
  const energies = f.nested('energies');
  const plain = energies ? undefined : f.series(['energies'], true);
  if (plain) f.warnings.push(f.t('energies is a plain list: it is shown as the total energy.'));
  return {
    total:
      energies?.series(['total', 'total_energy', 'etot']) ?? plain ?? f.series(['total_energy', 'total_energies', 'etot', 'energy_total']),
    kinetic: energies?.series(['kinetic', 'kinetic_energy', 'ekin']) ?? f.series(['kinetic_energy', 'kinetic_energies', 'ekin']),
    potential: energies?.series(['potential', 'potential_energy', 'epot']) ?? f.series(['potential_energy', 'potential_energies', 'epot']),
    temperature: f.series(['temperatures', 'temps']) ?? f.series(['temperature'], true),
    time: f.series(['times_fs', 'time_fs', 'time', 'times']) ?? f.series(['time_ps'])?.map((t) => (t === null ? null : t * 1000)),
  };
}

/** Every series as long as the longest, padded with gaps; a shorter one is a warning. */
function align(columns: Columns, f: Fields): number {
  const n = Math.max(0, ...Object.values(columns).map((s) => s?.length ?? 0));
  for (const [name, s] of Object.entries(columns)) {
    if (!s || s.length === n) continue;
    f.warnings.push(f.t('{0}: {1} values, but the longest series has {2}.', name, s.length, n));
    s.push(...new Array<null>(n - s.length).fill(null));
  }
  return n;
}

const numbers = (s: Series | undefined): number[] => (s ?? []).filter((x): x is number => x !== null);

function timeAxis(columns: Columns, n: number, timestep: number | undefined): Pick<MdModel, 'time' | 'timeUnit'> {
  const complete = (s: Series | undefined): s is number[] => !!s && s.length === n && s.every((x) => x !== null);
  if (complete(columns.time)) return { time: columns.time, timeUnit: 'fs' };
  const steps = complete(columns.step) ? columns.step : Array.from({ length: n }, (_, i) => i);
  return timestep ? { time: steps.map((s) => s * timestep), timeUnit: 'fs' } : { time: steps, timeUnit: 'step' };
}

export function readMd(f: Fields, context: KindContext): Read<MdModel> {
  const columns = fromRecords(f) ?? fromLists(f);
  const { kinetic, potential } = columns;
  if (!columns.total && kinetic && potential)
    columns.total = kinetic.map((k, i) => (k === null || potential[i] == null ? null : k + potential[i]));
  const n = align(columns, f);
  const timestep = f.number('timestep_fs', 'timestep', 'dt_fs', 'dt');
  const temperatures = numbers(columns.temperature);
  const totals = numbers(columns.total);
  const rawTrajectory = TRAJECTORY_NAMES.map((name) => f.peek(name)).find((v) => v !== undefined);
  const trajectory = f.read(TRAJECTORY_NAMES, toTrajectory, f.t('a list of frames of [x, y, z] positions'));
  const atoms = atomCount(f.warnings, context, [['trajectory', trajectory?.atoms, f.t('atoms per frame')]]);
  const givenDrift = f.number('energy_drift_eV_per_atom', 'energy_drift_per_atom', 'drift_eV_per_atom');
  const drift = givenDrift ?? (totals.length > 1 && atoms ? (totals.at(-1)! - totals[0]!) / atoms : undefined);
  const finalPoscar = f.text(...POSCAR_NAMES);
  const analysis = trajectory ? analyseTrajectory(rawTrajectory, finalPoscar, timestep) : undefined;
  return {
    kind: 'md',
    ...timeAxis(columns, n, timestep),
    total: columns.total ?? [],
    kinetic: kinetic ?? [],
    potential: potential ?? [],
    temperature: columns.temperature ?? [],
    averageTemperature:
      f.number('average_temperature', 'mean_temperature', 'avg_temperature', 'temperature_mean') ??
      (temperatures.length ? temperatures.reduce((a, b) => a + b, 0) / temperatures.length : undefined),
    finalTemperature: f.number('final_temperature', 'temperature_final') ?? temperatures.at(-1),
    energyDrift: drift,
    energyDriftComputed: givenDrift === undefined && drift !== undefined ? true : undefined,
    timestepFs: timestep,
    steps: f.count('steps', 'nsteps', 'n_steps', 'num_steps'),
    targetTemperature: f.number('temperature', 'target_temperature', 'temperature_K'),
    // Only a thermostat holds the temperature: in NVE (the default, as the service) it is where the run started.
    thermostat: /^nv[tp]/i.test(f.text('ensemble') ?? '') || undefined,
    finalPoscar,
    trajectory,
    ...(analysis ? { analysis } : {}),
  };
}
