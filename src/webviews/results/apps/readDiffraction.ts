/**
 * Readers of powder diffraction: a computed pattern (peaks as sticks and a table) and a match (the
 * ranked candidates, and the measured pattern sent drawn over the best match's peaks). Pure.
 */
import { parseDiffraction } from '../../../core/diffraction/parse';
import { isRecord, type Rec } from '../../../core/util/guards';
import { toNumber } from '../fields';
import type { Fields } from '../fields';
import { counting, fixed } from '../format';
import type { PlotSeries, PlotSpec } from '../plots';
import type { AppRead } from './model';
import { recordTable } from './tables';
import { plural, type Translate } from '../../../core/util/locale';

export interface Peak {
  angle: number;
  intensity: number;
  /** The hkl families of a computed peak, shown when the pointer is over it. */
  hkl?: string;
}

/** "1 1 1", [1, 1, 1] or [[1, 1, 1], …] as text. */
function hklOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value.slice(0, 100);
  if (Array.isArray(value) && value.every((v) => typeof v === 'number')) return value.join(value.some((v) => v < 0 || v > 9) ? ' ' : '');
  return undefined;
}

/** Peaks as records ({two_theta, intensity}) or as parallel lists of angles and intensities. */
export function readPeaks(f: Fields, names = ['peaks', 'pattern', 'reflections']): { peaks: Peak[]; records: unknown[] } {
  const records = f.read(names, (v) => (Array.isArray(v) && v.some(isRecord) ? v : undefined), f.t('a list of peaks'));
  if (records) {
    const peaks = records.flatMap((r) => {
      if (!isRecord(r)) return [];
      const angle = toNumber(r.two_theta ?? r['2theta'] ?? r.angle);
      const intensity = toNumber(r.intensity ?? r.relative_intensity ?? r.i);
      const hkl = hklOf(r.hkl);
      return angle !== undefined && intensity !== undefined ? [{ angle, intensity, ...(hkl ? { hkl } : {}) }] : [];
    });
    return { peaks, records };
  }
  const angles = f.series(['two_theta', 'angles', 'x'], true);
  const intensities = f.series(['intensities', 'intensity', 'y'], true);
  if (!angles || !intensities) return { peaks: [], records: [] };
  if (angles.length !== intensities.length)
    f.warnings.push(f.t('{0} angles but {1} intensities: the shorter list is used.', angles.length, intensities.length));
  const peaks = angles.flatMap((a, i) =>
    a !== null && intensities[i] !== null && intensities[i] !== undefined ? [{ angle: a, intensity: intensities[i] }] : [],
  );
  return { peaks, records: [] };
}

/** One x axis for several series: the union of their angles, each series null where it has no point. */
export function patternPlot(
  id: string,
  title: string,
  sets: { label: string; points: Peak[]; colour: PlotSeries['colour']; sticks: boolean }[],
  t: Translate,
): PlotSpec {
  const x = [...new Set(sets.flatMap((s) => s.points.map((p) => p.angle)))].sort((a, b) => a - b);
  const index = new Map(x.map((v, i) => [v, i]));
  const series = sets.map((s) => {
    const values: (number | null)[] = new Array<number | null>(x.length).fill(null);
    for (const p of s.points) values[index.get(p.angle)!] = p.intensity;
    return { label: s.label, values, colour: s.colour, sticks: s.sticks, spanGaps: !s.sticks };
  });
  const notes: (string | null)[] = new Array<string | null>(x.length).fill(null);
  for (const p of sets.flatMap((set) => set.points)) if (p.hkl) notes[index.get(p.angle)!] = p.hkl;
  const margin = Math.max(2, ((x.at(-1) ?? 0) - (x[0] ?? 0)) * 0.04);
  const xRange: [number, number] = [Math.max(0, Math.floor((x[0] ?? 0) - margin)), Math.min(180, Math.ceil((x.at(-1) ?? 90) + margin))];
  const labelled = notes.some((n) => n !== null);
  return {
    id,
    title,
    xLabel: t('2θ (°)'),
    yLabel: t('Intensity (relative)'),
    x,
    series,
    legend: sets.length > 1 || labelled,
    yRange: [0, 105],
    xRange,
    ...(labelled ? { xNotes: notes } : {}),
  };
}

const strongest = (peaks: Peak[]): Peak | undefined =>
  peaks.reduce<Peak | undefined>((best, p) => (!best || p.intensity > best.intensity ? p : best), undefined);

export function readPxrd(f: Fields, request: Rec, t: Translate): AppRead {
  const { peaks, records } = readPeaks(f);
  const wavelength = f.number('wavelength', 'wavelength_angstrom');
  const jid = f.text('jid') ?? (typeof request.jid === 'string' ? request.jid : undefined);
  const formula = f.text('formula');
  f.read(['two_theta_range'], (v) => (Array.isArray(v) ? v : undefined));
  const top = strongest(peaks);
  const facts = [
    ...(wavelength !== undefined
      ? [
          Math.abs(wavelength - 1.5406) < 1e-4
            ? t('Wavelength {0} Å (Cu Kα)', fixed(wavelength, 4))
            : t('Wavelength {0} Å', fixed(wavelength, 4)),
        ]
      : []),
    ...(top ? [t('Strongest peak at 2θ = {0}°', fixed(top.angle, 2))] : []),
  ];
  const table = recordTable(records, {
    id: 'peaks',
    title: t('Peaks'),
    pageSize: 50,
    known: [
      { names: ['two_theta', '2theta', 'angle'], label: t('2θ (°)') },
      { names: ['d_spacing', 'd'], label: t('d (Å)') },
      { names: ['intensity'], label: t('Intensity') },
      { names: ['hkl'], label: t('hkl') },
      { names: ['multiplicity'], label: t('Multiplicity') },
    ],
    note: t('Click a column to sort.'),
  }).table;
  // A pattern computed here over an open measured file (webviews/xrd): the scan drawn under the sticks, and the score.
  const sent = measured(request);
  const match = f.nested('match');
  if (match) {
    const score = match.number('score');
    // The zero shift is kept in the answer, not shown: within the pairing tolerance many shifts tie for the best.
    match.number('zero_shift');
    const name = match.text('measured') ?? (typeof request.measured === 'string' ? request.measured : t('the measured pattern'));
    match.number('matched_peaks');
    const how = match.text('method');
    if (score !== undefined)
      facts.push(
        how ? t('Match with {0}: score {1} ({2})', name, fixed(score, 3), how) : t('Match with {0}: score {1}', name, fixed(score, 3)),
      );
  }
  const note = f.text('note');
  if (note) facts.push(note);
  const reflections = f.number('reflections');
  if (reflections !== undefined)
    facts.push(
      plural(
        counting(t),
        reflections,
        '{0} reflection summed (every one in the sphere: multiplicities from the symmetry)',
        '{0} reflections summed (every one in the sphere: multiplicities from the symmetry)',
      ),
    );
  f.text('structure');
  const sets = [
    ...(sent.length
      ? [
          {
            label: typeof request.measured === 'string' ? t('Measured ({0})', request.measured) : t('Measured'),
            points: sent,
            colour: 'foreground' as const,
            sticks: false,
          },
        ]
      : []),
    ...(peaks.length
      ? [{ label: t('Computed'), points: peaks, colour: sent.length ? ('red' as const) : ('blue' as const), sticks: true }]
      : []),
  ];
  const plots = peaks.length
    ? [patternPlot('pattern', sent.length ? t('Computed pattern over the measured one') : t('Powder pattern'), sets, t)]
    : [];
  return { headline: pxrdHeadline(peaks.length, formula, jid, t), facts, tables: records.length ? [table] : [], plots };
}

/** "12 peaks for Si (JVASP-1002)", "12 peaks (JVASP-1002)", "12 peaks". */
function pxrdHeadline(n: number, formula: string | undefined, jid: string | undefined, t: Translate): string {
  if (!n) return t('No peaks in the answer');
  const en = counting(t);
  if (formula) return plural(en, n, '{0} peak for {1}', '{0} peaks for {1}', jid ? `${formula} (${jid})` : formula);
  return jid ? plural(en, n, '{0} peak ({1})', '{0} peaks ({1})', jid) : plural(en, n, '{0} peak', '{0} peaks');
}

/** The measured pattern the run sent, scaled to 100 at its highest point. */
function measured(request: Rec): Peak[] {
  if (typeof request.xrd_data !== 'string') return [];
  const points = parseDiffraction(request.xrd_data).points;
  const max = Math.max(...points.map((p) => p.intensity), 0);
  return max > 0 ? points.map((p) => ({ angle: p.angle, intensity: (100 * p.intensity) / max })) : [];
}

export function readPxrdMatch(f: Fields, request: Rec, t: Translate): AppRead {
  const matches = f.read(['matches', 'results', 'candidates'], (v) => (Array.isArray(v) ? v : undefined), f.t('a list of matches')) ?? [];
  const best = f.nested('best') ?? f.nested('best_match');
  const bestPeaks = best ? readPeaks(best).peaks : [];
  const bestName = best && [best.text('formula'), best.text('jid')].filter(Boolean).join(' · ');
  f.number('n_points');
  f.read(['formula'], (v) => (typeof v === 'string' || v === null ? v : undefined));
  const table = recordTable(matches, {
    id: 'matches',
    title: t('Candidates, best first'),
    idNames: ['jid', 'id'],
    detailApp: 'materials_explorer',
    known: [
      { names: ['jid', 'id'], label: t('Id') },
      { names: ['formula'], label: t('Formula') },
      { names: ['score', 'similarity', 'match_score'], label: t('Score') },
    ],
    note: t('Click a row to open the material and its structure.'),
  }).table;
  const top = table.rows[0];
  const scoreColumn = table.columns.indexOf(t('Score'));
  const topName = top?.cells
    .slice(0, 2)
    .filter((c) => c !== '–')
    .join(' · ');
  const headline = !top
    ? t('No candidates matched')
    : scoreColumn >= 0
      ? t('Best match: {0} (score {1})', topName!, top.cells[scoreColumn]!)
      : t('Best match: {0}', topName!);
  const sent = measured(request);
  const sets = [
    ...(sent.length ? [{ label: t('Measured'), points: sent, colour: 'foreground' as const, sticks: false }] : []),
    ...(bestPeaks.length
      ? [{ label: bestName ? t('Best match ({0})', bestName) : t('Best match'), points: bestPeaks, colour: 'red' as const, sticks: true }]
      : []),
  ];
  const facts = [
    typeof request.formula === 'string' && request.formula
      ? plural(
          counting(t),
          sent.length,
          '{0} measured point sent, candidates of formula {1}',
          '{0} measured points sent, candidates of formula {1}',
          request.formula,
        )
      : plural(counting(t), sent.length, '{0} measured point sent', '{0} measured points sent'),
  ];
  if (sent.length && !bestPeaks.length && top)
    facts.push(t('The answer has no pattern for the best match: only the measured pattern is drawn'));
  return {
    headline,
    facts,
    tables: matches.length ? [table] : [],
    plots: sets.length ? [patternPlot('match', t('Measured pattern over the best match'), sets, t)] : [],
  };
}
