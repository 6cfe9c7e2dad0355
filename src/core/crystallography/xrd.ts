/**
 * The kinematic X-ray powder pattern of a crystal structure, computed as pymatgen's XRDCalculator computes it
 * (S. P. Ong et al., Comput. Mater. Sci. 68, 314 (2013); the formalism of M. De Graef and M. E. McHenry,
 * Structure of Materials, Cambridge 2007, chapters 11–12), so that the two agree reflection for reflection:
 *
 * 1. Every reciprocal-lattice point g = h b₁ + k b₂ + l b₃ (no 2π) with |g| ≤ 2 sin(θmax)/λ, whatever the cell's
 *    shape: h = g·a₁ bounds |h| by |g|·|a₁| (and k likewise), and for each (h, k) the l that stay inside the
 *    sphere are the roots of a quadratic, so no point is missed and none outside is visited.
 * 2. Bragg's law: sinθ = λ|g|/2, s = sinθ/λ = |g|/2.
 * 3. Atomic scattering factors by the Mott–Bethe formula, f(s) = Z − 8π²a₀ s² Σ aᵢ exp(−bᵢ s²) (8π²a₀ =
 *    41.78214 Å), with Doyle & Turner's four-Gaussian electron scattering factors (scatteringFactors.ts);
 *    an optional Debye–Waller factor exp(−B s²) per element (B in Å²); occupancies multiply.
 * 4. F(hkl) = Σⱼ fⱼ exp(2πi (h xⱼ + k yⱼ + l zⱼ)), I = |F|² (Friedel's law, |F(−g)| = |F(g)| without anomalous
 *    scattering, halves the work: each g is computed once and counted twice).
 * 5. The Lorentz–polarisation factor of an unpolarised beam without a monochromator, (1 + cos²2θ)/(sin²θ cosθ).
 * 6. Reflections closer than a tolerance in 2θ (pymatgen's 1e-5°) merge into one peak; every symmetry-equivalent
 *    reflection inside the sphere is summed, so multiplicities come from the symmetry without a space group. A
 *    peak's reflections are grouped into families (permutations of |h|, |k|, |l|, as pymatgen's
 *    get_unique_families does), each named by its largest member in (h, k, l) order (111 rather than 1̄11),
 *    with the family's count as its multiplicity. Hexagonal cells (a = b, α = β = 90°, γ = 120°) are labelled with
 *    Miller–Bravais indices (h, k, −h−k, l).
 * 7. Intensities scaled to a maximum of 100; peaks at 1e-3 or below (pymatgen's tolerance for absences that do
 *    not cancel exactly in floating point) are left out.
 *
 * Pure: no `vscode`, no Node.
 */
import { DOYLE_TURNER } from './scatteringFactors';
import type { Mat3, Vec3 } from '../poscar/types';
import { determinant, dot, norm, reciprocal } from '../poscar/vec';

/** Cu Kα₁ in Å (J. A. Bearden, Rev. Mod. Phys. 39, 78 (1967); pymatgen's "CuKa1"): the default wavelength. */
export const CU_K_ALPHA1 = 1.54056;
/** Å: the wavelengths a user may ask for (Ag Kβ is 0.497 Å, Cr Kα 2.29 Å; the service request checks the same range). */
export const MIN_WAVELENGTH = 0.01;
export const MAX_WAVELENGTH = 5;
/** Reflections a pattern may sum at most (before Friedel halving): a 2,000-atom cell to 90° with Cu Kα₁. */
export const MAX_REFLECTIONS = 200_000;
/** Atoms × reflections at most: about two seconds of work. */
export const MAX_WORK = 2e9;

/** 8π²a₀ in Å (a₀ the Bohr radius): the Mott–Bethe constant. */
const MOTT_BETHE = 41.78214;

export const XRD_METHOD =
  'kinematic powder pattern: atomic scattering factors by the Mott–Bethe formula from the electron scattering ' +
  'factors of Doyle & Turner, Acta Cryst. A24, 390 (1968), as pymatgen XRDCalculator uses them; ' +
  'Lorentz–polarisation (1 + cos²2θ)/(sin²θ cosθ); every reflection in the sphere summed (multiplicity from symmetry)';

/** What the pattern is computed from: a frame of any structure reader (Cartesian positions in Å). */
export interface XrdStructure {
  lattice: Mat3;
  species: readonly string[];
  positions: readonly Vec3[];
  occupancy?: readonly number[];
}

export interface XrdOptions {
  /** Å; Cu Kα₁ when not given. */
  wavelength?: number;
  /** Degrees 2θ; [0, 90] when not given (pymatgen's default). */
  twoThetaMin?: number;
  twoThetaMax?: number;
  /** Debye–Waller B in Å² by element symbol (none: B = 0). */
  debyeWaller?: Readonly<Record<string, number>>;
  /** Degrees 2θ: reflections closer than this share a peak (pymatgen's 1e-5). */
  mergeTolerance?: number;
  /** Scaled intensity (max 100) at or below which a peak is left out (pymatgen's 1e-3). */
  minIntensity?: number;
  maxReflections?: number;
}

export interface HklFamily {
  /** (h, k, l), or (h, k, i, l) for a hexagonal cell. */
  hkl: number[];
  multiplicity: number;
}

export interface XrdPeak {
  twoTheta: number;
  /** Å */
  d: number;
  /** Scaled: the strongest peak is 100. */
  intensity: number;
  /** The families of the reflections in this peak, the first of the largest (h, k, l). */
  families: HklFamily[];
}

export interface XrdPattern {
  wavelength: number;
  twoThetaRange: [number, number];
  peaks: XrdPeak[];
  /** Reflections summed (both members of each Friedel pair). */
  reflections: number;
  hexagonal: boolean;
  /** Set when the cell needed more reflections than allowed up to the 2θ asked for: the range was cut to what fits. */
  limited?: { requested: number; reason: string };
}

export class XrdError extends Error {}

interface Coefficients {
  z: number;
  ab: readonly number[];
}
const COEFFICIENTS = new Map<string, Coefficients>(DOYLE_TURNER.map(([symbol, z, ...ab]) => [symbol, { z, ab }]));

/** Whether an element has scattering factors here. */
export const hasScatteringFactors = (symbol: string): boolean => COEFFICIENTS.has(symbol);

/** f_x(s) of an element at s = sinθ/λ (Å⁻¹) by the Mott–Bethe formula. */
export function scatteringFactor(symbol: string, s: number): number {
  const c = COEFFICIENTS.get(symbol);
  if (!c) throw new XrdError(`No X-ray scattering factors for "${symbol}".`);
  const s2 = s * s;
  let sum = 0;
  for (let i = 0; i < 8; i += 2) sum += c.ab[i]! * Math.exp(-c.ab[i + 1]! * s2);
  return c.z - MOTT_BETHE * s2 * sum;
}

const DEG = Math.PI / 180;

/** Whether a cell is hexagonal: a = b within 0.01 Å, α = β = 90° and γ = 120° (or 60°) within 5°. */
export function isHexagonal([a, b, c]: Mat3): boolean {
  const angle = (u: Vec3, v: Vec3) => Math.acos(dot(u, v) / (norm(u) * norm(v))) / DEG;
  const gamma = angle(a, b);
  return (
    Math.abs(norm(a) - norm(b)) < 0.01 &&
    Math.abs(angle(b, c) - 90) < 5 &&
    Math.abs(angle(a, c) - 90) < 5 &&
    (Math.abs(gamma - 120) < 5 || Math.abs(gamma - 60) < 5)
  );
}

/** The number of reciprocal-lattice points within |g| ≤ gmax, about: the sphere's volume times the cell's. */
const reflectionEstimate = (gmax: number, cellVolume: number): number => ((4 / 3) * Math.PI * gmax ** 3 * cellVolume) | 0;

/** A family's key: the sorted absolute indices (pymatgen's is_perm), as one number (indices stay far below 4096). */
function familyKey(hkl: readonly number[]): number {
  let a = Math.abs(hkl[0]!);
  let b = Math.abs(hkl[1]!);
  let c = Math.abs(hkl[2]!);
  let d = hkl.length === 4 ? Math.abs(hkl[3]!) : -1;
  // A sorting network: four compare-exchanges sort three values, five sort four.
  if (a > b) [a, b] = [b, a];
  if (c > d) [c, d] = [d, c];
  if (a > c) [a, c] = [c, a];
  if (b > d) [b, d] = [d, b];
  if (b > c) [b, c] = [c, b];
  return ((a * 4096 + b) * 4096 + c) * 4096 + d + 1;
}

/** Python's tuple order: the first differing index decides. */
function compareHkl(x: readonly number[], y: readonly number[]): number {
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return 0;
}

/**
 * The families of a peak's reflections, in the order pymatgen lists them: by |g| (to 1e-9 Å⁻¹, below which
 * symmetry-equivalent reflections differ only by rounding), then by (h, k, l) from the largest down.
 */
function families(members: readonly { g: number; hkl: number[] }[]): HklFamily[] {
  const sorted = [...members].sort((x, y) => Math.round(x.g * 1e9) - Math.round(y.g * 1e9) || compareHkl(y.hkl, x.hkl));
  const byKey = new Map<number, HklFamily>();
  for (const { hkl } of sorted) {
    const key = familyKey(hkl);
    const family = byKey.get(key);
    if (!family) byKey.set(key, { hkl, multiplicity: 1 });
    else {
      family.multiplicity++;
      if (compareHkl(hkl, family.hkl) > 0) family.hkl = hkl;
    }
  }
  return [...byKey.values()];
}

/** e^{2πi(h x + k y)} × occupancy of every atom, from the per-axis tables (stride entries per atom). */
function hkPhases(
  n: number,
  xRe: Float64Array,
  xIm: Float64Array,
  xStride: number,
  xAt: number,
  yRe: Float64Array,
  yIm: Float64Array,
  yStride: number,
  yAt: number,
  occupancy: Float64Array,
  outRe: Float64Array,
  outIm: Float64Array,
): void {
  for (let j = 0; j < n; j++) {
    const xi = j * xStride + xAt;
    const yi = j * yStride + yAt;
    const xr = xRe[xi]!;
    const xm = xIm[xi]!;
    const yr = yRe[yi]!;
    const ym = yIm[yi]!;
    outRe[j] = (xr * yr - xm * ym) * occupancy[j]!;
    outIm[j] = (xr * ym + xm * yr) * occupancy[j]!;
  }
}

/**
 * Σⱼ e^{2πi g·rⱼ} per element: the (h, k) phases times e^{2πi l z}. A function of its own (called once per
 * reflection) so the engine optimises it after a few calls, not after a long first pattern.
 */
function atomSums(
  n: number,
  hkRe: Float64Array,
  hkIm: Float64Array,
  zRe: Float64Array,
  zIm: Float64Array,
  zStride: number,
  zAt: number,
  elementOf: Int32Array,
  sumRe: Float64Array,
  sumIm: Float64Array,
): void {
  sumRe.fill(0);
  sumIm.fill(0);
  for (let j = 0; j < n; j++) {
    const zi = j * zStride + zAt;
    const zr = zRe[zi]!;
    const zm = zIm[zi]!;
    const a = hkRe[j]!;
    const b = hkIm[j]!;
    const e = elementOf[j]!;
    sumRe[e] = sumRe[e]! + a * zr - b * zm;
    sumIm[e] = sumIm[e]! + a * zm + b * zr;
  }
}

interface Reflection {
  twoTheta: number;
  g: number;
  intensity: number;
  h: number;
  k: number;
  l: number;
}

interface Range {
  minTT: number;
  maxTT: number;
  limited?: XrdPattern['limited'];
}

/** The checked wavelength, structure and 2θ range, the range cut to the reflection limit (with the reason). */
function checkedRange(structure: XrdStructure, wavelength: number, options: XrdOptions): Range {
  if (!(wavelength >= MIN_WAVELENGTH && wavelength <= MAX_WAVELENGTH))
    throw new XrdError(`The wavelength must be between ${MIN_WAVELENGTH} and ${MAX_WAVELENGTH} Å, not ${wavelength}.`);
  const minTT = options.twoThetaMin ?? 0;
  const maxTT = options.twoThetaMax ?? 90;
  if (!(minTT >= 0 && maxTT > minTT && maxTT <= 180)) throw new XrdError(`The 2θ range must lie within 0–180°, not ${minTT}–${maxTT}°.`);
  const volume = Math.abs(determinant(structure.lattice));
  if (!(volume > 1e-6) || !Number.isFinite(volume)) throw new XrdError('The cell has no volume: its lattice vectors are not independent.');
  const n = structure.positions.length;
  if (n === 0) throw new XrdError('The structure has no atoms.');
  for (const symbol of new Set(structure.species))
    if (!COEFFICIENTS.has(symbol)) throw new XrdError(`No X-ray scattering factors for "${symbol}".`);
  const maxReflections = options.maxReflections ?? MAX_REFLECTIONS;
  const count = (tt: number) => reflectionEstimate(gOf(tt, wavelength), volume);
  const fits = (tt: number) => count(tt) <= maxReflections && count(tt) * n <= MAX_WORK;
  if (fits(maxTT)) return { minTT, maxTT };
  let lo = minTT;
  let hi = maxTT;
  for (let i = 0; i < 40; i++) {
    const mid = (lo + hi) / 2;
    if (fits(mid)) lo = mid;
    else hi = mid;
  }
  const cut = Math.floor(lo * 10) / 10;
  if (cut <= minTT) throw new XrdError(`This cell of ${n} atoms needs more reflections than ${maxReflections} for any pattern.`);
  return {
    minTT,
    maxTT: cut,
    limited: {
      requested: maxTT,
      reason: `Up to ${maxTT}° this cell of ${n} atoms has about ${count(maxTT)} reflections, more than the ${maxReflections} computed at most: the pattern stops at ${cut}°.`,
    },
  };
}

/** |g| of the Bragg angle 2θ (degrees) at this wavelength: 2 sinθ / λ. */
const gOf = (tt: number, wavelength: number): number => (2 * Math.sin((Math.min(tt, 180) * DEG) / 2)) / wavelength;

/** e^{2πi h x} of every atom along one axis for h in [−m, m], by table: the phase of (h, k, l) is a product of three. */
function phaseTable(frac: readonly Vec3[], axis: number, m: number): { re: Float64Array; im: Float64Array } {
  const n = frac.length;
  const re = new Float64Array(n * (2 * m + 1));
  const im = new Float64Array(n * (2 * m + 1));
  for (let j = 0; j < n; j++) {
    const x = frac[j]![axis]!;
    for (let h = -m; h <= m; h++) {
      const phase = 2 * Math.PI * h * x;
      re[j * (2 * m + 1) + h + m] = Math.cos(phase);
      im[j * (2 * m + 1) + h + m] = Math.sin(phase);
    }
  }
  return { re, im };
}

/** Every reflection with gMin ≤ |g| ≤ gMax in one half of the sphere (Friedel's law gives the other), with I·LP. */
function reflectionsOf(structure: XrdStructure, wavelength: number, gMin: number, gMax: number, options: XrdOptions): Reflection[] {
  const { lattice, species, positions } = structure;
  const n = positions.length;
  // Fractional coordinates; atoms grouped by element so each f(s) is computed once per reflection.
  const inv = reciprocal(lattice);
  const frac = positions.map((p) => [dot(p, inv[0]), dot(p, inv[1]), dot(p, inv[2])] as Vec3);
  const elements = [...new Set(species)];
  const elementOf = Int32Array.from(species, (s) => elements.indexOf(s));
  const occupancy = Float64Array.from({ length: n }, (_, j) => structure.occupancy?.[j] ?? 1);
  const dw = elements.map((e) => options.debyeWaller?.[e] ?? 0);
  const [b1, b2, b3] = inv;
  const [H, K, L] = lattice.map((a) => Math.floor(gMax * norm(a) + 1e-9)) as [number, number, number];
  const [px, py, pz] = [phaseTable(frac, 0, H), phaseTable(frac, 1, K), phaseTable(frac, 2, L)];
  const [hkRe, hkIm] = [new Float64Array(n), new Float64Array(n)];
  const [sumRe, sumIm] = [new Float64Array(elements.length), new Float64Array(elements.length)];
  const b33 = dot(b3, b3);
  const reflections: Reflection[] = [];
  for (let h = 0; h <= H; h++) {
    for (let k = h === 0 ? 0 : -K; k <= K; k++) {
      const g0: Vec3 = [h * b1[0] + k * b2[0], h * b1[1] + k * b2[1], h * b1[2] + k * b2[2]];
      // |g0 + l b3|² ≤ gMax²: l between the roots of b33 l² + 2 (g0·b3) l + |g0|² − gMax².
      const half = dot(g0, b3) / b33;
      const disc = half * half - (dot(g0, g0) - gMax * gMax) / b33;
      if (disc < 0) continue;
      let lLo = Math.max(-L, Math.ceil(-half - Math.sqrt(disc) - 1e-9));
      const lHi = Math.min(L, Math.floor(-half + Math.sqrt(disc) + 1e-9));
      if (h === 0 && k === 0) lLo = Math.max(lLo, 1); // the other half of the sphere is the Friedel mates
      if (lLo > lHi) continue;
      hkPhases(n, px.re, px.im, 2 * H + 1, h + H, py.re, py.im, 2 * K + 1, k + K, occupancy, hkRe, hkIm);
      for (let l = lLo; l <= lHi; l++) {
        const g = Math.hypot(g0[0] + l * b3[0], g0[1] + l * b3[1], g0[2] + l * b3[2]);
        if (g > gMax * (1 + 1e-12) || g < gMin || g === 0) continue;
        atomSums(n, hkRe, hkIm, pz.re, pz.im, 2 * L + 1, l + L, elementOf, sumRe, sumIm);
        const s = g / 2;
        let re = 0;
        let im = 0;
        for (let e = 0; e < elements.length; e++) {
          const f = scatteringFactor(elements[e]!, s) * Math.exp(-dw[e]! * s * s);
          re += f * sumRe[e]!;
          im += f * sumIm[e]!;
        }
        const theta = Math.asin(Math.min(1, (wavelength * g) / 2));
        const lp = (1 + Math.cos(2 * theta) ** 2) / (Math.sin(theta) ** 2 * Math.cos(theta));
        reflections.push({ twoTheta: (2 * theta) / DEG, g, intensity: (re * re + im * im) * lp, h, k, l });
      }
    }
  }
  return reflections;
}

/** Reflections within the tolerance in 2θ as one peak (each with its Friedel mate), scaled to 100, weak ones left out. */
function mergedPeaks(reflections: Reflection[], hexagonal: boolean, options: XrdOptions): XrdPeak[] {
  const z = (v: number): number => (v === 0 ? 0 : v); // no −0 in a label
  const label = (h: number, k: number, l: number): number[] => (hexagonal ? [z(h), z(k), z(-h - k), z(l)] : [z(h), z(k), z(l)]);
  reflections.sort((x, y) => x.twoTheta - y.twoTheta);
  const tolerance = options.mergeTolerance ?? 1e-5;
  const merged: { twoTheta: number; d: number; intensity: number; members: { g: number; hkl: number[] }[] }[] = [];
  for (const r of reflections) {
    let peak = merged[merged.length - 1];
    if (!peak || r.twoTheta - peak.twoTheta >= tolerance) {
      peak = { twoTheta: r.twoTheta, d: 1 / r.g, intensity: 0, members: [] };
      merged.push(peak);
    }
    peak.intensity += 2 * r.intensity;
    peak.members.push({ g: r.g, hkl: label(r.h, r.k, r.l) }, { g: r.g, hkl: label(-r.h, -r.k, -r.l) });
  }
  const max = merged.reduce((m, p) => Math.max(m, p.intensity), 0);
  const minIntensity = options.minIntensity ?? 1e-3;
  const peaks = max > 0 ? merged.filter((p) => (100 * p.intensity) / max > minIntensity) : [];
  return peaks.map((p) => ({ twoTheta: p.twoTheta, d: p.d, intensity: (100 * p.intensity) / max, families: families(p.members) }));
}

/** The pattern of one structure. Throws XrdError for an element without scattering factors or an unusable cell. */
export function powderPattern(structure: XrdStructure, options: XrdOptions = {}): XrdPattern {
  const wavelength = options.wavelength ?? CU_K_ALPHA1;
  const { minTT, maxTT, limited } = checkedRange(structure, wavelength, options);
  const reflections = reflectionsOf(structure, wavelength, gOf(minTT, wavelength), gOf(maxTT, wavelength), options);
  const hexagonal = isHexagonal(structure.lattice);
  return {
    wavelength,
    twoThetaRange: [minTT, maxTT],
    reflections: 2 * reflections.length,
    hexagonal,
    peaks: mergedPeaks(reflections, hexagonal, options),
    ...(limited ? { limited } : {}),
  };
}

/** A family as crystallographers write it: 1 1 0 → "110"; with spaces when an index is negative or past 9 ("1 -1 0", "1 10 2"). */
export function hklText(hkl: readonly number[]): string {
  return hkl.some((v) => v < 0 || v > 9) ? hkl.join(' ') : hkl.join('');
}

/** The pattern as two columns for an .xy file: 2θ and the scaled intensity of each peak, with a comment header. */
export function patternXy(pattern: XrdPattern, title: string): string {
  const lines = [
    `# ${title.replace(/[\r\n]+/g, ' ')}: computed powder pattern, wavelength ${pattern.wavelength} Å`,
    `# ${XRD_METHOD}`,
    '# two_theta intensity',
    ...pattern.peaks.map((p) => `${p.twoTheta.toFixed(4)} ${p.intensity.toFixed(4)}`),
  ];
  return `${lines.join('\n')}\n`;
}
