/**
 * The band-structure answer. Eigenvalues come as `eigenvalues` [k][band] or `bands` [band][k] (the
 * orientation is checked against the k-point count and turned when it does not fit), bare or under
 * `band_data`, one matrix or one per spin channel (drawn together). The x axis is the service's
 * k-distances, else the cumulative distance between fractional k-points (without the lattice:
 * approximate), else the k-point index.
 */
import type { Vec3 } from '../../core/poscar/types';
import { toBoolean, toMatrix, toNumber, toVec3Rows, type Fields, type SeriesRead } from './fields';
import { edgesFromElectrons, edgesFromFermi, locate } from './gap';
import { readTicks } from './labels';
import type { BandEdges, BandsModel, Series } from './model';
import type { Read } from './readCommon';

const MAX_BAND_VALUES = 4_000_000;

const K_MAJOR = ['eigenvalues', 'eigenvalues_eV', 'eigs', 'energies'];
const BAND_MAJOR = ['bands', 'band_energies', 'bands_eV'];

/** One matrix, or one per spin channel. */
function channels(value: unknown): SeriesRead[][] | undefined {
  const one = toMatrix(value, MAX_BAND_VALUES);
  if (one) return [one];
  if (!Array.isArray(value) || value.length < 1 || value.length > 2) return undefined;
  const each = value.map((c) => toMatrix(c, MAX_BAND_VALUES / 2));
  return each.every((c) => c !== undefined) ? each : undefined;
}

interface Matrix {
  channels: Series[][];
  kMajor: boolean;
  holes: number;
}

function readMatrix(f: Fields): Matrix | undefined {
  for (const [names, kMajor] of [
    [K_MAJOR, true],
    [BAND_MAJOR, false],
  ] as const) {
    const found = f.read(names, channels, f.t('a matrix of numbers'));
    if (!found) continue;
    const holes = found.flat().reduce((n, row) => n + row.bad, 0);
    return { channels: found.map((c) => c.map((row) => row.values)), kMajor, holes };
  }
  return undefined;
}

const transpose = (m: Series[]): Series[] => m[0]!.map((_, j) => m.map((row) => row[j]!));

/** The matrix as bands[b][k], turned when its declared orientation does not fit the k-point count. */
function orient(m: Series[], kMajor: boolean, nk: number | undefined, f: Fields): Series[] {
  const [rows, cols] = [m.length, m[0]!.length];
  let byK = kMajor;
  if (nk !== undefined && rows !== cols) {
    if (rows === nk) byK = true;
    else if (cols === nk) byK = false;
    else
      f.warnings.push(
        f.t('The eigenvalues are {0} × {1}, but there are {2} k-points: read as {3}.', rows, cols, nk, kMajor ? '[k][band]' : '[band][k]'),
      );
  }
  return byK ? transpose(m) : m;
}

function cumulative(kpoints: readonly Vec3[]): number[] {
  let total = 0;
  return kpoints.map(
    (k, i) => (total += i ? Math.hypot(k[0] - kpoints[i - 1]![0], k[1] - kpoints[i - 1]![1], k[2] - kpoints[i - 1]![2]) : 0),
  );
}

function axis(
  given: Series | undefined,
  kpoints: Vec3[] | undefined,
  nk: number,
  f: Fields,
): Pick<BandsModel, 'distances' | 'distanceSource'> {
  if (given && given.length === nk && given.every((x) => x !== null)) return { distances: given, distanceSource: 'service' };
  if (given)
    f.warnings.push(
      kpoints?.length === nk
        ? f.t('The k-distances ({0}) do not match the {1} k-points: computed from the k-points.', given.length, nk)
        : f.t('The k-distances ({0}) do not match the {1} k-points: the k-point index is used.', given.length, nk),
    );
  if (kpoints?.length === nk) return { distances: cumulative(kpoints), distanceSource: 'kpoints' };
  return { distances: Array.from({ length: nk }, (_, i) => i), distanceSource: 'index' };
}

type GivenEdges = Partial<Pick<BandEdges, 'vbm' | 'cbm' | 'gap' | 'direct' | 'directGap' | 'metal'>> & { fermi?: number };

const NUMBER_PREFIX = /^\s*[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?/i;

/** Numbers in headers whose names mention gap, vbm, cbm or fermi ("x-band-gap: 1.12 eV"). */
function headerEdges(headers: Record<string, string>): GivenEdges {
  const found: GivenEdges = {};
  for (const [rawName, value] of Object.entries(headers)) {
    const name = rawName.toLowerCase();
    if (!/gap|vbm|cbm|fermi/.test(name)) continue;
    const word = String(value).trim().toLowerCase();
    const n = toNumber(NUMBER_PREFIX.exec(word)?.[0]);
    if (word === 'direct' || word === 'indirect') found.direct = word === 'direct';
    else if (/is.?direct/.test(name) || (name.includes('direct') && n === undefined)) found.direct = toBoolean(word) ?? found.direct;
    else if (n === undefined) continue;
    else if (name.includes('gap')) found[name.includes('direct') ? 'directGap' : 'gap'] = n;
    else found[name.includes('vbm') ? 'vbm' : name.includes('cbm') ? 'cbm' : 'fermi'] = n;
  }
  return found;
}

function givenEdges(pick: <T>(read: (s: Fields) => T | undefined) => T | undefined): GivenEdges {
  const directGap = pick((s) => s.read(['direct_gap'], toNumber));
  return {
    vbm: pick((s) => s.number('vbm', 'valence_band_maximum', 'vbm_eV')),
    cbm: pick((s) => s.number('cbm', 'conduction_band_minimum', 'cbm_eV')),
    gap: pick((s) => s.number('band_gap', 'gap', 'bandgap', 'band_gap_eV', 'gap_eV')),
    direct: pick(
      (s) =>
        s.read(['is_direct', 'direct', 'is_direct_gap'], toBoolean) ??
        (directGap === undefined ? s.read(['direct_gap'], toBoolean) : undefined),
    ),
    directGap,
    metal: pick((s) => s.boolean('is_metal', 'metal', 'metallic')),
  };
}

const defined = (e: GivenEdges): boolean => e.vbm !== undefined || e.cbm !== undefined || e.gap !== undefined || e.metal !== undefined;

function bandEdges(
  bands: Series[],
  distances: number[],
  given: GivenEdges,
  source: BandEdges['source'],
  nelectrons: number | undefined,
  fermi: number | undefined,
): BandEdges {
  const { fermi: _fermi, ...known } = given;
  const fromElectrons = defined(given) || nelectrons === undefined ? undefined : edgesFromElectrons(bands, nelectrons);
  const computed = defined(given) ? undefined : (fromElectrons ?? (fermi !== undefined ? edgesFromFermi(bands, fermi) : undefined));
  const e = computed ?? {
    ...known,
    vbmK: known.vbm === undefined ? undefined : locate(bands, known.vbm),
    cbmK: known.cbm === undefined ? undefined : locate(bands, known.cbm),
  };
  const gap = known.gap ?? (e.vbm !== undefined && e.cbm !== undefined ? Math.max(0, e.cbm - e.vbm) : computed?.metal ? 0 : undefined);
  const sameK = e.vbmK !== undefined && e.cbmK !== undefined ? Math.abs(distances[e.vbmK]! - distances[e.cbmK]!) < 1e-9 : undefined;
  return {
    ...e,
    gap,
    metal: known.metal ?? (gap === undefined ? undefined : gap <= 0),
    direct: known.direct ?? (gap ? sameK : undefined),
    source: computed ? (fromElectrons ? 'electrons' : 'fermi') : defined(given) ? source : 'none',
  };
}

export function readBands(f: Fields, headers: Record<string, string>): Read<BandsModel> {
  const sources = [f.nested('band_data'), f].filter((s): s is Fields => s !== undefined);
  const pick = <T>(read: (s: Fields) => T | undefined): T | undefined => sources.map(read).find((v) => v !== undefined);
  const kpoints = pick((s) => s.read(['kpoints', 'k_points', 'kpts', 'kpoint_coords'], toVec3Rows, f.t('a list of [kx, ky, kz]')));
  const given = pick((s) => s.series(['kdistances', 'distances', 'x', 'k_distances', 'kpath_distances']));
  const matrix = pick(readMatrix);
  if (matrix?.holes) f.warnings.push(f.t('{0} eigenvalues are not numbers (left as gaps).', matrix.holes));
  const nk0 = given?.length ?? kpoints?.length;
  const bands = matrix?.channels.flatMap((m) => orient(m, matrix.kMajor, nk0, f)) ?? [];
  if ((matrix?.channels.length ?? 0) > 1) f.warnings.push(f.t('The eigenvalues have two spin channels: both are drawn.'));
  const nk = bands[0]?.length ?? nk0 ?? 0;
  const nbands = pick((s) => s.count('nbands', 'n_bands', 'num_bands'));
  if (nbands !== undefined && bands.length && nbands !== bands.length)
    f.warnings.push(f.t('nbands is {0}, but the eigenvalues hold {1} bands.', nbands, bands.length));
  const { distances, distanceSource } = axis(given, kpoints, nk, f);
  const fermi = pick((s) => s.number('fermi_level', 'efermi', 'fermi_energy', 'e_fermi', 'fermi', 'E_fermi'));
  const nelectrons = pick((s) => s.number('nelectrons', 'n_electrons', 'num_electrons', 'nelect', 'electrons'));
  const body = givenEdges(pick);
  const fromHeaders = headerEdges(headers);
  const source = defined(body) ? 'service' : 'headers';
  const edgesGiven = defined(body) ? body : fromHeaders;
  return {
    kind: 'tightbinding',
    distances,
    distanceSource,
    bands,
    ticks: pick((s) => readTicks(s, distances, kpoints)) ?? [],
    fermi: fermi ?? fromHeaders.fermi,
    edges: bandEdges(bands, distances, edgesGiven, source, nelectrons, fermi ?? fromHeaders.fermi),
    nelectrons,
    path: pick((s) => s.text('path', 'kpath', 'k_path')),
    latticeType: pick((s) => s.text('lattice_type', 'bravais', 'bravais_lattice')),
    latticeTypeSource: pick((s) => s.text('lattice_type_source')),
    ...dosOf(f),
  };
}

/** `dos: {energies, states}` (or `dos_energies`/`dos` lists), when both are there and agree in length. */
function dosOf(f: Fields): { dos?: BandsModel['dos'] } {
  const nested = f.nested('dos');
  const energies = nested?.series(['energies', 'energy', 'e'], true) ?? f.series(['dos_energies'], true);
  const states = nested?.series(['states', 'dos', 'total'], true) ?? f.series(['dos_states'], true);
  if (!energies || !states) return {};
  if (energies.length !== states.length || energies.some((e) => e === null)) {
    f.warnings.push(f.t('The density of states has energies and states of different lengths (not drawn).'));
    return {};
  }
  // What the curve was made with, for its title: the broadening and the k-mesh.
  const sigma = nested?.number('sigma', 'broadening', 'smearing');
  const mesh = nested?.series(['kmesh', 'mesh'], true);
  nested?.text('unit', 'units');
  const made = [sigma === undefined ? '' : `σ ${sigma} eV`, mesh?.length === 3 ? `${mesh.join('×')} k-mesh` : '']
    .filter(Boolean)
    .join(', ');
  return { dos: { energies: energies as number[], states, ...(made ? { made } : {}) } };
}
