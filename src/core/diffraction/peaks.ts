/**
 * From a measured powder scan to its peaks, and a figure of merit against a computed stick pattern.
 * Pure; the reference server's /pxrd/match uses it, and a test can run it on any scan.
 *
 * - Background: SNIP (statistics-sensitive non-linear iterative peak clipping; C. G. Ryan et al.,
 *   Nucl. Instrum. Methods B 34, 396 (1988), with the decreasing clipping window of M. Morháč et al.,
 *   Nucl. Instrum. Methods A 401, 113 (1997)) on the LLS-transformed intensities log(log(√(y+1)+1)+1).
 * - Peaks: the scan smoothed over ±0.05° (so SNIP follows the background, not the troughs of the
 *   noise), then maxima over ±0.1° of the net signal above 4σ of the counting noise there (σ ∝ √background,
 *   its scale from the median absolute deviation of point-to-point differences) and 2 % of the tallest peak, positions refined by a parabola
 *   through the top three points.
 * - Match: each computed reflection pairs with the nearest unpaired measured peak within a 2θ tolerance
 *   (after the zero shift that pairs the strongest peaks best is removed); the score is the cosine
 *   between the two intensity vectors over all peaks, paired or not, so missing and extra peaks count
 *   against a candidate in proportion to their intensity (the idea of the intensity-weighted figures of
 *   merit in search-match programs, e.g. Hanawalt's strongest-lines search made quantitative).
 */

export interface XyPoint {
  two_theta: number;
  intensity: number;
}
export interface StickPeak {
  two_theta: number;
  intensity: number;
}

/** A list of peaks, not a scan: too few points, or steps too uneven to be one scan. */
export function isPeakList(points: readonly XyPoint[]): boolean {
  if (points.length < 50) return true;
  const steps = points
    .slice(1)
    .map((p, i) => p.two_theta - points[i]!.two_theta)
    .sort((a, b) => a - b);
  const median = steps[steps.length >> 1]!;
  return !(median > 0 && median < 0.5);
}

const lls = (y: number): number => Math.log(Math.log(Math.sqrt(Math.max(0, y) + 1) + 1) + 1);
const unlls = (v: number): number => (Math.exp(Math.exp(v) - 1) - 1) ** 2 - 1;

/** SNIP background of `y`, clipping windows from `width` points down to 1. */
export function snipBackground(y: readonly number[], width: number): number[] {
  let v = y.map(lls);
  for (let p = Math.max(1, Math.round(width)); p >= 1; p--) {
    const next = v.slice();
    for (let i = p; i < v.length - p; i++) next[i] = Math.min(v[i]!, (v[i - p]! + v[i + p]!) / 2);
    v = next;
  }
  return v.map(unlls);
}

/**
 * The background under a scan already smoothed over ±0.05°: SNIP clips to the lower envelope of what it
 * is given, so smoothed first it follows the background, not the troughs of the noise. The clipping
 * window is 1.5°: wider than a peak, narrower than the background's bends.
 */
export function scanBackground(smoothed: readonly number[], step: number): number[] {
  return snipBackground(smoothed, 1.5 / step);
}

/** A moving average over ±`half` points: counting noise down before the background is clipped to it. */
function smooth(y: readonly number[], half: number): number[] {
  const prefix = [0];
  for (const v of y) prefix.push(prefix[prefix.length - 1]! + v);
  return y.map((_, i) => {
    const from = Math.max(0, i - half);
    const to = Math.min(y.length - 1, i + half);
    return (prefix[to + 1]! - prefix[from]!) / (to - from + 1);
  });
}

/** Whether `i` is the highest point within ±`half` points. */
function isTop(y: readonly number[], i: number, half: number): boolean {
  for (let k = Math.max(0, i - half); k <= Math.min(y.length - 1, i + half); k++)
    if (y[k]! > y[i]! || (y[k] === y[i] && k < i)) return false;
  return true;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[sorted.length >> 1]! : 0;
}

/** σ of white noise from the median absolute point-to-point difference (robust to the peaks). */
function noiseSigma(y: readonly number[]): number {
  return (median(y.slice(1).map((v, i) => Math.abs(v - y[i]!))) * 1.4826) / Math.SQRT2;
}

/** The finest step the windows of findPeaks are counted in: its 1.5° background window is then at most 1,000 points. */
export const MIN_WINDOW_STEP = 0.0015;

/** The peaks of a measured scan (background removed), or the points themselves when they are a peak list. */
export function findPeaks(points: readonly XyPoint[]): StickPeak[] {
  if (isPeakList(points)) return points.filter((p) => p.intensity > 0).map((p) => ({ two_theta: p.two_theta, intensity: p.intensity }));
  const step = (points[points.length - 1]!.two_theta - points[0]!.two_theta) / (points.length - 1);
  // The windows below are so many degrees wide: counted in points at no finer a step than this, so that a hostile
  // scan (20,000 points over 0.2°) costs what a real one does, not minutes.
  const windowStep = Math.max(step, MIN_WINDOW_STEP);
  const half = Math.max(1, Math.round(0.05 / windowStep)); // a tenth of a degree: narrower than any powder peak
  const raw = points.map((p) => p.intensity);
  const y = smooth(raw, half);
  const clipped = scanBackground(y, windowStep);
  // SNIP still sits a little under noisy data (it clips to the troughs): raised by the median net signal,
  // which on a scan that is mostly background is that offset.
  const offset = median(y.map((v, i) => v - clipped[i]!));
  const background = clipped.map((b) => b + offset);
  const net = y.map((v, i) => v - background[i]!);
  // Counting noise grows as √(counts): σᵢ = c·√(backgroundᵢ), c measured on the raw points (neighbours
  // independent) so that scaled, non-count data work too, then scaled down to the smoothed points.
  const noise = noiseSigma(raw.map((v, i) => (v - background[i]!) / Math.sqrt(Math.max(background[i]!, 1))));
  const least = 0.02 * Math.max(...net);
  const peaks: StickPeak[] = [];
  for (let i = 1; i < net.length - 1; i++) {
    const floor = Math.max(least, (4 * noise * Math.sqrt(Math.max(background[i]!, 1))) / Math.sqrt(2 * half + 1));
    if (!(net[i]! > floor) || !isTop(net, i, 2 * half)) continue;
    const [a, b, c] = [net[i - 1]!, net[i]!, net[i + 1]!];
    const curvature = a - 2 * b + c;
    const offset = curvature < 0 ? (0.5 * (a - c)) / curvature : 0;
    peaks.push({ two_theta: points[i]!.two_theta + offset * step, intensity: b });
  }
  return peaks;
}

/** Pairs of (computed, measured) indices, each measured peak used once, nearest first, within `tolerance`. */
function pair(reference: readonly StickPeak[], measured: readonly StickPeak[], shift: number, tolerance: number): [number, number][] {
  const candidates: [number, number, number][] = [];
  reference.forEach((r, i) =>
    measured.forEach((m, j) => {
      const gap = Math.abs(m.two_theta - shift - r.two_theta);
      if (gap <= tolerance) candidates.push([gap, i, j]);
    }),
  );
  candidates.sort((x, y) => x[0] - y[0]);
  const usedR = new Set<number>();
  const usedM = new Set<number>();
  const pairs: [number, number][] = [];
  for (const [, i, j] of candidates) {
    if (usedR.has(i) || usedM.has(j)) continue;
    usedR.add(i);
    usedM.add(j);
    pairs.push([i, j]);
  }
  return pairs;
}

/** The cosine between the two patterns' intensity vectors, peaks paired within the tolerance. */
function cosine(reference: readonly StickPeak[], measured: readonly StickPeak[], pairs: readonly [number, number][]): number {
  const normR = Math.hypot(...reference.map((p) => p.intensity));
  const normM = Math.hypot(...measured.map((p) => p.intensity));
  if (!(normR > 0 && normM > 0)) return 0;
  const dot = pairs.reduce((sum, [i, j]) => sum + reference[i]!.intensity * measured[j]!.intensity, 0);
  return dot / (normR * normM);
}

export interface MatchResult {
  score: number;
  shift: number;
  matched: number;
}

/**
 * How well `measured` peaks fit a computed pattern in [0, 1], over the computed pattern's angle range,
 * with the zero shift (|shift| ≤ 0.3°) that fits best.
 */
export function matchPeaks(reference: readonly StickPeak[], measuredAll: readonly StickPeak[], tolerance = 0.2): MatchResult {
  if (reference.length === 0 || measuredAll.length === 0) return { score: 0, shift: 0, matched: 0 };
  const top = Math.max(...reference.map((p) => p.two_theta)) + 1;
  const measured = measuredAll.filter((p) => p.two_theta <= top);
  let best: MatchResult = { score: 0, shift: 0, matched: 0 };
  for (let k = -6; k <= 6; k++) {
    const shift = k * 0.05;
    const pairs = pair(reference, measured, shift, tolerance);
    const score = cosine(reference, measured, pairs);
    if (score > best.score + 1e-12) best = { score, shift, matched: pairs.length };
  }
  return { ...best, score: Math.round(best.score * 1000) / 1000 };
}
