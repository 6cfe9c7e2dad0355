/** What a result view draws, as data (plots.ts makes them, the page's plot.ts draws them with uPlot). */
import type { BandTick, Series } from './basics';

/** Theme colours: --vscode-charts-<name>, or the foreground. */
export type Colour = 'blue' | 'red' | 'green' | 'orange' | 'purple' | 'yellow' | 'foreground';

export interface PlotSeries {
  label: string;
  values: Series;
  colour: Colour;
  /** Drawn as vertical lines from zero (diffraction peaks), not joined. */
  sticks?: boolean;
  /** Joined across the x of other series (where this one has no value). */
  spanGaps?: boolean;
  /** Drawn as bars from each x to the next (a histogram's bins, x their lower edges). */
  bars?: boolean;
}

export interface PlotSpec {
  /** For file names and test targets: "energy", "force", "md-energy", "temperature", "bands". */
  id: string;
  title: string;
  xLabel: string;
  yLabel: string;
  x: number[];
  series: PlotSeries[];
  legend: boolean;
  /** CSS pixels; 280 when not given. */
  height?: number;
  /** x holds step numbers: ticks on whole numbers only. */
  xSteps?: boolean;
  /** y holds counts: ticks on whole numbers only. */
  ySteps?: boolean;
  logY?: boolean;
  /** Dashed horizontal lines: a threshold, the energy zero, a mean. */
  hLines?: { y: number; label: string; colour: Colour }[];
  /** Dashed vertical lines: a limit on the x axis (a context window). */
  vLines?: { x: number; label: string; colour: Colour }[];
  /** Vertical lines with their labels on the x axis (high-symmetry points). */
  xTicks?: BandTick[];
  /** A shaded range of y, e.g. the band gap. */
  yBand?: { from: number; to: number; label: string };
  /** Labelled points, e.g. VBM and CBM. */
  marks?: { x: number; y: number; label: string }[];
  yRange?: [number, number];
  /** The x axis range, when the data's own would put points on the edges (diffraction sticks). */
  xRange?: [number, number];
  /** A label per x shown with the values under the pointer (a diffraction peak's hkl families), null where none. */
  xNotes?: (string | null)[];
  /** Indices where a new branch of the x axis starts: no line joins the points either side. */
  breaks?: number[];
  /** What Copy CSV writes when it is not the plotted numbers (absolute energies behind a relative plot). */
  csv?: { x: number[]; xLabel: string; columns: { label: string; values: Series }[] };
}
