/**
 * One plot of a result view drawn with uPlot in the theme's colours: series, dashed lines with labels,
 * labelled vertical lines at high-symmetry points, a shaded band (the gap), marked points. Export
 * composes the canvas on the editor background with the title and a legend, so the PNG reads on its own.
 */
import uPlot from 'uplot';
import { cssVar, el } from '../bridge';
import { short, tickLabels } from '../../results/format';
import type { Colour, PlotSpec } from '../../results/plots';

const FALLBACK: Record<Colour, string> = {
  blue: '#3794ff',
  red: '#f14c4c',
  green: '#89d185',
  orange: '#d18616',
  purple: '#b180d7',
  yellow: '#cca700',
  foreground: '#cccccc',
};

export function colour(name: Colour): string {
  return (name === 'foreground' ? cssVar('--vscode-foreground') : cssVar(`--vscode-charts-${name}`)) || FALLBACK[name];
}

/** The colour with an alpha, from any CSS colour the browser knows. */
function withAlpha(css: string, alpha: number): string {
  const probe = el('canvas').getContext('2d')!;
  probe.fillStyle = css;
  const hex = probe.fillStyle; // normalised to #rrggbb (or rgba(...) when it had alpha)
  if (!hex.startsWith('#')) return hex;
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  return `rgba(${r}, ${g}, ${b}, ${alpha})`;
}

const HEIGHT = 280;
/** Every linear axis's tick labels: as many decimals as the step between ticks needs (format.ts tickLabels). */
const values = (_u: uPlot, splits: number[]): string[] => tickLabels(splits);
/** A y axis wide enough for its longest label (12 px digits are about 7 px wide), never narrower than 64 px. */
const ySize = (_u: uPlot, labels: string[] | null): number => Math.max(64, 22 + 7 * Math.max(0, ...(labels ?? []).map((l) => l.length)));
/** The y axis's labels as uPlot drew them (its own `_values`, not in its types); for the test seams. */
export const yTicks = (plot: Plot): string[] =>
  ((plot.uplot.axes[1] as { _values?: unknown[] } | undefined)?._values ?? []).map((v) => (v === null ? '' : String(v)));
/** Tick steps for axes of step numbers or counts: whole numbers only. */
const WHOLE = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000, 20_000, 50_000, 100_000];

function overlays(spec: PlotSpec): uPlot.Hooks.Arrays {
  const px = uPlot.pxRatio;
  const font = `${11 * px}px ${cssVar('--vscode-font-family') || 'sans-serif'}`;
  const fg = colour('foreground');
  return {
    drawClear: [
      (u) => {
        if (!spec.yBand) return;
        const [top, bottom] = [u.valToPos(spec.yBand.to, 'y', true), u.valToPos(spec.yBand.from, 'y', true)];
        u.ctx.save();
        u.ctx.fillStyle = withAlpha(colour('orange'), 0.18);
        u.ctx.fillRect(u.bbox.left, top, u.bbox.width, bottom - top);
        u.ctx.restore();
      },
    ],
    draw: [
      (u) => {
        const { ctx, bbox } = u;
        ctx.save();
        ctx.font = font;
        ctx.beginPath();
        ctx.rect(bbox.left, bbox.top, bbox.width, bbox.height);
        ctx.clip();
        for (const line of spec.hLines ?? []) {
          const y = u.valToPos(line.y, 'y', true);
          dashed(ctx, line.colour, px, [bbox.left, y], [bbox.left + bbox.width, y]);
          ctx.textAlign = 'left';
          ctx.fillText(line.label, bbox.left + 6 * px, y - 4 * px);
        }
        for (const line of spec.vLines ?? []) {
          const x = u.valToPos(line.x, 'x', true);
          dashed(ctx, line.colour, px, [x, bbox.top], [x, bbox.top + bbox.height]);
          ctx.textAlign = 'right';
          ctx.fillText(line.label, x - 4 * px, bbox.top + 14 * px);
        }
        ctx.setLineDash([]);
        // Stick series (diffraction peaks): a vertical line from zero to each value.
        spec.series.forEach((s, index) => {
          if (!s.sticks) return;
          ctx.strokeStyle = colour(s.colour);
          ctx.lineWidth = 1.5 * px;
          const zero = u.valToPos(0, 'y', true);
          s.values.forEach((v, i) => {
            if (v === null || u.series[index + 1]?.show === false) return;
            const x = u.valToPos(spec.x[i]!, 'x', true);
            ctx.beginPath();
            ctx.moveTo(x, zero);
            ctx.lineTo(x, u.valToPos(v, 'y', true));
            ctx.stroke();
          });
        });
        if (spec.yBand) {
          ctx.fillStyle = colour('orange');
          ctx.textAlign = 'right';
          ctx.fillText(
            spec.yBand.label,
            bbox.left + bbox.width - 6 * px,
            u.valToPos((spec.yBand.from + spec.yBand.to) / 2, 'y', true) + 4 * px,
          );
        }
        for (const mark of spec.marks ?? []) {
          const [x, y] = [u.valToPos(mark.x, 'x', true), u.valToPos(mark.y, 'y', true)];
          ctx.fillStyle = fg;
          ctx.beginPath();
          ctx.arc(x, y, 3.5 * px, 0, 2 * Math.PI);
          ctx.fill();
          ctx.textAlign = 'left';
          ctx.fillText(mark.label, x + 6 * px, y + (mark.label === 'VBM' ? 14 : -6) * px);
        }
        ctx.restore();
      },
    ],
  };
}

/** A dashed line in the colour, which stays the fill colour for its label. */
function dashed(ctx: CanvasRenderingContext2D, name: Colour, px: number, from: [number, number], to: [number, number]): void {
  ctx.strokeStyle = ctx.fillStyle = colour(name);
  ctx.setLineDash([6 * px, 4 * px]);
  ctx.lineWidth = px;
  ctx.beginPath();
  ctx.moveTo(...from);
  ctx.lineTo(...to);
  ctx.stroke();
}

/** The series as uPlot draws them: one per branch where the x axis breaks (a gap of zero width would still be joined). */
function branches(spec: PlotSpec): { series: PlotSpec['series']; data: uPlot.AlignedData } {
  const starts = [0, ...(spec.breaks ?? []), spec.x.length];
  const pieces = starts.slice(1).map((end, b) => [starts[b]!, end] as const);
  const series =
    pieces.length > 1
      ? spec.series.flatMap((s) => pieces.map(([from, to]) => ({ ...s, values: s.values.map((v, i) => (i >= from && i < to ? v : null)) })))
      : spec.series;
  return { series, data: [spec.x, ...series.map((s) => s.values)] as uPlot.AlignedData };
}

function options(spec: PlotSpec, series: PlotSpec['series'], width: number): uPlot.Options {
  const fg = colour('foreground');
  const grid = withAlpha(cssVar('--vscode-editorWidget-border') || fg, 0.35);
  const font = `${12}px ${cssVar('--vscode-font-family') || 'sans-serif'}`;
  const ticks = spec.xTicks?.length ? spec.xTicks : undefined;
  const axis = { stroke: fg, font, labelFont: font, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid } };
  const bands = series.length > 12;
  return {
    width,
    height: spec.height ?? HEIGHT,
    scales: {
      x: { time: false, ...(spec.xRange ? { range: (): uPlot.Range.MinMax => spec.xRange! } : {}) },
      y: { distr: spec.logY ? 3 : 1, ...(spec.yRange ? { range: (): uPlot.Range.MinMax => spec.yRange! } : {}) },
    },
    axes: [
      {
        ...axis,
        label: spec.xLabel,
        ...(spec.xSteps ? { incrs: WHOLE } : {}),
        values,
        ...(ticks
          ? {
              splits: () => ticks.map((t) => t.distance),
              values: () => ticks.map((t) => t.label),
              grid: { stroke: withAlpha(fg, 0.45), width: 1 },
            }
          : {}),
      },
      { ...axis, label: spec.yLabel, size: ySize, ...(spec.logY ? {} : { values }), ...(spec.ySteps ? { incrs: WHOLE } : {}) },
    ],
    series: [
      {
        label: spec.xLabel,
        // With notes (a peak's hkl), the pointer's x reads "27.366 · 111".
        value: (_u, v, _s, i) => (v == null ? '–' : `${short(v, 5)}${i != null && spec.xNotes?.[i] ? ` · ${spec.xNotes[i]}` : ''}`),
      },
      ...series.map((s) => ({
        label: s.label,
        stroke: colour(s.colour),
        width: bands ? 1.25 : 1.75,
        // Few steps (a relax that converged at once) would draw nothing without their points.
        points: { show: !bands && !s.sticks && !s.bars && spec.x.length <= 60, size: 6 },
        ...(s.sticks ? { paths: () => null } : {}),
        ...(s.bars ? { paths: uPlot.paths.bars!({ align: 1, size: [1, Infinity] }), fill: withAlpha(colour(s.colour), 0.5) } : {}),
        ...(s.spanGaps ? { spanGaps: true } : {}),
        value: (_u: uPlot, v: number | null) => (v == null ? '–' : short(v, 5)),
      })),
    ],
    legend: { show: spec.legend, live: !bands },
    cursor: { drag: { x: true, y: false }, points: { show: !bands } },
    hooks: overlays(spec),
  };
}

export interface Plot {
  spec: PlotSpec;
  uplot: uPlot;
  /** A PNG of the plot on the editor background, with its title and legend. */
  png(): string;
  resize(width: number): void;
  destroy(): void;
}

export function drawPlot(container: HTMLElement, spec: PlotSpec): Plot {
  const width = Math.max(200, container.clientWidth);
  const { series, data } = branches(spec);
  const u = new uPlot(options(spec, series, width), data, container);
  return {
    spec,
    uplot: u,
    png: () => composePng(u, spec),
    resize: (w) => u.setSize({ width: Math.max(200, w), height: spec.height ?? HEIGHT }),
    destroy: () => u.destroy(),
  };
}

function composePng(u: uPlot, spec: PlotSpec): string {
  const px = uPlot.pxRatio;
  const strip = 28 * px;
  const canvas = el('canvas');
  canvas.width = u.ctx.canvas.width;
  canvas.height = u.ctx.canvas.height + strip;
  const ctx = canvas.getContext('2d')!;
  ctx.fillStyle = cssVar('--vscode-editor-background') || '#ffffff';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.font = `600 ${13 * px}px ${cssVar('--vscode-font-family') || 'sans-serif'}`;
  ctx.fillStyle = colour('foreground');
  ctx.textBaseline = 'middle';
  ctx.fillText(spec.title, 10 * px, strip / 2);
  let x = 20 * px + ctx.measureText(spec.title).width;
  ctx.font = `${12 * px}px ${cssVar('--vscode-font-family') || 'sans-serif'}`;
  for (const s of spec.legend ? spec.series : []) {
    ctx.fillStyle = colour(s.colour);
    ctx.fillRect(x, strip / 2 - 5 * px, 10 * px, 10 * px);
    ctx.fillStyle = colour('foreground');
    ctx.fillText(s.label, x + 14 * px, strip / 2);
    x += 24 * px + ctx.measureText(s.label).width;
  }
  ctx.drawImage(u.ctx.canvas, 0, strip);
  return canvas.toDataURL('image/png');
}
