/**
 * The plots of a result view as data: what to draw (series, lines, ticks, a shaded gap) and the CSV
 * behind each. The page draws them with uPlot in the theme's colours. Pure: tested in Node.
 */
import { ENGLISH, type Translate } from '../../core/util/locale';
import { firstNumber } from './format';
import type { BandsModel, MdModel, RelaxModel, Series } from './model';
import type { Colour, PlotSpec } from './plotSpec';
import type { ResultView } from './protocol';
import { bandReference } from './summary';

export type { Colour, PlotSeries, PlotSpec } from './plotSpec';

const steps = (n: number): number[] => Array.from({ length: n }, (_, i) => i);

function relax(m: RelaxModel, t: Translate): PlotSpec[] {
  const plots: PlotSpec[] = [];
  if (m.energies.length) {
    plots.push({
      id: 'energy',
      title: t('Energy per step'),
      xLabel: t('Step'),
      yLabel: 'E (eV)',
      x: steps(m.energies.length),
      xSteps: true,
      legend: false,
      series: [{ label: t('Energy (eV)'), values: m.energies, colour: 'blue' }],
    });
  }
  if (m.forcesMax.length) {
    const positive = m.forcesMax.every((f) => f === null || f > 0) && (m.fmax === undefined || m.fmax > 0);
    plots.push({
      id: 'force',
      title: t('Maximum force per step'),
      xLabel: t('Step'),
      yLabel: positive ? t('max |F| (eV/Å, log)') : t('max |F| (eV/Å)'),
      x: steps(m.forcesMax.length),
      xSteps: true,
      legend: false,
      logY: positive,
      series: [{ label: t('Max force (eV/Å)'), values: m.forcesMax, colour: 'red' }],
      hLines: m.fmax === undefined ? undefined : [{ y: m.fmax, label: t('threshold {0} eV/Å', m.fmax), colour: 'green' }],
    });
  }
  return plots;
}

const relative = (s: Series): Series => {
  const zero = firstNumber(s) ?? 0;
  return s.map((x) => (x === null ? null : x - zero));
};

function md(m: MdModel, t: Translate): PlotSpec[] {
  const xLabel = m.timeUnit === 'fs' ? t('Time (fs)') : t('Step');
  const energies = (
    [
      [t('Total'), m.total, 'blue', t('Total energy (eV)')],
      [t('Kinetic'), m.kinetic, 'red', t('Kinetic energy (eV)')],
      [t('Potential'), m.potential, 'green', t('Potential energy (eV)')],
    ] as const
  ).filter(([, s]) => s.length > 0);
  const plots: PlotSpec[] = [];
  if (energies.length) {
    plots.push({
      id: 'md-energy',
      title: t('Energy change since the start'),
      xLabel,
      yLabel: 'E − E(0) (eV)',
      x: m.time,
      xSteps: m.timeUnit === 'step',
      legend: true,
      series: energies.map(([label, s, colour]) => ({ label, values: relative(s), colour })),
      csv: { x: m.time, xLabel, columns: energies.map(([, s, , column]) => ({ label: column, values: s })) },
    });
  }
  if (m.temperature.length) {
    const lines = [
      ...(m.averageTemperature === undefined
        ? []
        : [{ y: m.averageTemperature, label: t('mean {0} K', m.averageTemperature.toFixed(1)), colour: 'foreground' as const }]),
      ...(m.targetTemperature === undefined
        ? []
        : [
            {
              y: m.targetTemperature,
              label: m.thermostat ? t('target {0} K', m.targetTemperature) : t('initial {0} K', m.targetTemperature),
              colour: 'green' as const,
            },
          ]),
    ];
    plots.push({
      id: 'temperature',
      title: t('Temperature'),
      xLabel,
      yLabel: 'T (K)',
      x: m.time,
      xSteps: m.timeUnit === 'step',
      legend: false,
      hLines: lines,
      series: [{ label: t('Temperature (K)'), values: m.temperature, colour: 'orange' }],
    });
  }
  return [...plots, ...trajectoryPlots(m, t)];
}

const PAIR_COLOURS: Colour[] = ['red', 'green', 'orange', 'purple', 'yellow'];

/** D as people quote it: cm²/s (1 Å²/fs = 0.1 cm²/s). */
function diffusionText(d: number, unit: 'fs' | 'frame'): string {
  return unit === 'fs' ? `D = ${(d * 0.1).toExponential(2)} cm²/s` : `D = ${d.toExponential(2)} Å²/frame`;
}

/** g(r), total and per pair, and MSD(t) with the fitted line of D: the trajectory analysis of readTrajectory.ts. */
function trajectoryPlots(m: MdModel, t: Translate): PlotSpec[] {
  const plots: PlotSpec[] = [];
  const rdf = m.analysis?.rdf;
  if (rdf) {
    const pairs = rdf.pairs.length > 1 ? rdf.pairs : [];
    plots.push({
      id: 'rdf',
      title:
        rdf.frames === 1
          ? t('Radial distribution function ({0} frame averaged)', rdf.frames)
          : t('Radial distribution function ({0} frames averaged)', rdf.frames),
      xLabel: 'r (Å)',
      yLabel: 'g(r)',
      x: rdf.r,
      legend: pairs.length > 0,
      series: [
        { label: t('Total'), values: rdf.total, colour: 'blue' },
        ...pairs.map((p, i) => ({ label: p.label, values: p.g, colour: PAIR_COLOURS[i % PAIR_COLOURS.length]! })),
      ],
      hLines: [{ y: 1, label: t('ideal gas'), colour: 'foreground' }],
    });
  }
  const msd = m.analysis?.msd;
  if (msd) {
    const unit = msd.unit === 'fs' ? 'fs' : 'frames';
    const d = msd.diffusion;
    const fit =
      d !== undefined && msd.window
        ? msd.lag.map((lag) => (lag >= msd.window![0]! && lag <= msd.window![1]! ? 6 * d * lag + fitIntercept(msd) : null))
        : undefined;
    plots.push({
      id: 'msd',
      title:
        d !== undefined
          ? t(
              'Mean squared displacement: {0} (MSD = 6Dt fitted over {1}–{2} {3})',
              diffusionText(d, msd.unit),
              msd.window![0]!,
              msd.window![1]!,
              unit,
            )
          : t('Mean squared displacement (too few frames to fit D)'),
      xLabel: t('Lag ({0})', unit),
      yLabel: 'MSD (Å²)',
      x: msd.lag,
      xSteps: msd.unit === 'frame',
      legend: fit !== undefined,
      series: [
        { label: t('MSD (Å²)'), values: msd.msd, colour: 'blue' },
        ...(fit ? [{ label: t('Fit 6Dt + c'), values: fit, colour: 'red' as const }] : []),
      ],
    });
  }
  return plots;
}

/** The fitted line's intercept, from the MSD over the window (the model carries D and the window only). */
function fitIntercept(msd: NonNullable<NonNullable<MdModel['analysis']>['msd']>): number {
  const inWindow = msd.lag.flatMap((t, k) => (t >= msd.window![0]! && t <= msd.window![1]! ? [[t, msd.msd[k]!] as const] : []));
  const mean = (v: number[]) => v.reduce((a, b) => a + b, 0) / v.length;
  return mean(inWindow.map(([, y]) => y)) - 6 * msd.diffusion! * mean(inWindow.map(([t]) => t));
}

/** Bands within this many eV of the energy zero set the initial y range. */
const BAND_WINDOW = 10;

function extent(bands: readonly Series[]): [number, number] {
  let [lo, hi] = [Infinity, -Infinity];
  for (const band of bands) for (const e of band) if (e !== null) [lo, hi] = [Math.min(lo, e), Math.max(hi, e)];
  return [lo, hi];
}

function bands(m: BandsModel, t: Translate): PlotSpec[] {
  if (!m.bands.length) return [];
  const ref = bandReference(m);
  const zero = ref?.value ?? 0;
  const shifted = m.bands.map((b) => b.map((e) => (e === null ? null : e - zero)));
  const [lo, hi] = extent(shifted);
  const { gap, vbmK, cbmK, cbm } = m.edges;
  const gapped = ref?.name === 'VBM' && gap !== undefined && gap > 0;
  const marks = [
    ...(gapped && vbmK !== undefined ? [{ x: m.distances[vbmK]!, y: 0, label: t('VBM') }] : []),
    ...(gapped && cbmK !== undefined && cbm !== undefined ? [{ x: m.distances[cbmK]!, y: cbm - zero, label: t('CBM') }] : []),
  ];
  return [
    {
      id: 'bands',
      title: t('Band structure'),
      xLabel: m.distanceSource === 'index' ? t('k-point') : t('k-distance'),
      yLabel: ref ? `E − ${ref.name === 'VBM' ? 'E_VBM' : 'E_F'} (eV)` : 'E (eV)',
      x: m.distances,
      legend: false,
      height: 460,
      xSteps: m.distanceSource === 'index',
      // Where the path jumps, two k-points share one distance.
      breaks: m.distances.flatMap((d, i) => (i > 0 && Math.abs(d - m.distances[i - 1]!) < 1e-9 ? [i] : [])),
      series: shifted.map((values, i) => ({ label: t('Band {0}', i + 1), values, colour: 'blue' })),
      // With the edges marked, the zero line needs no label of its own.
      hLines: ref ? [{ y: 0, label: marks.length ? '' : ref.name, colour: 'foreground' }] : undefined,
      xTicks: m.ticks,
      yBand: gapped ? { from: 0, to: gap, label: t('gap {0} eV', gap.toFixed(3)) } : undefined,
      marks,
      yRange: ref ? [Math.max(lo, -BAND_WINDOW), Math.min(hi, BAND_WINDOW)] : [lo, hi],
      csv: { x: m.distances, xLabel: t('k-distance'), columns: m.bands.map((values, i) => ({ label: t('Band {0} (eV)', i + 1), values })) },
    },
  ];
}

/** The density of states against energy, on the bands' zero (the VBM or the Fermi level), within their window. */
function dos(m: BandsModel, t: Translate): PlotSpec[] {
  if (!m.dos) return [];
  const ref = bandReference(m);
  const zero = ref?.value ?? 0;
  const x = m.dos.energies.map((e) => e - zero);
  return [
    {
      id: 'dos',
      title: m.dos.made ? t('Density of states ({0})', m.dos.made) : t('Density of states'),
      xLabel: ref ? `E − ${ref.name === 'VBM' ? 'E_VBM' : 'E_F'} (eV)` : 'E (eV)',
      yLabel: t('States / eV per cell'),
      x,
      legend: false,
      series: [{ label: t('DOS'), values: m.dos.states, colour: 'blue' }],
      xRange: ref ? [Math.max(x[0]!, -BAND_WINDOW), Math.min(x.at(-1)!, BAND_WINDOW)] : undefined,
      csv: { x: m.dos.energies, xLabel: 'E (eV)', columns: [{ label: t('States per eV per cell'), values: m.dos.states }] },
    },
  ];
}

/** The view's plots, worded by `t` (the page's, from the extension's bundle). */
export function plotsOf(view: ResultView, t: Translate = ENGLISH.t): PlotSpec[] {
  const m = view.model;
  if ('plots' in m) return m.plots;
  return m.kind === 'relax' ? relax(m, t) : m.kind === 'md' ? md(m, t) : m.kind === 'tightbinding' ? [...bands(m, t), ...dos(m, t)] : [];
}

const cell = (text: string): string => (/[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);

/** The numbers behind a plot, one row per x, empty cells for gaps. */
export function toCsv(spec: PlotSpec): string {
  const { x, xLabel, columns } = spec.csv ?? { x: spec.x, xLabel: spec.xLabel, columns: spec.series };
  const header = [xLabel, ...columns.map((c) => c.label)].map(cell).join(',');
  const rows = x.map((xi, i) => [xi, ...columns.map((c) => c.values[i] ?? '')].join(','));
  return `${[header, ...rows].join('\n')}\n`;
}
