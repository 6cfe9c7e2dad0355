/**
 * A structure a run returned, written in the layout of the file that was sent: the same lines, spacing,
 * coordinate mode, precision, species and counts lines, flags and labels, with only the numbers that
 * moved rewritten and every position wrapped into the cell. So a diff of the two shows what the run
 * changed and nothing else. Pure.
 */
import { parsePoscar } from './parse';
import { tokenize, type Token } from './text';
import type { Mat3, Poscar, Vec3 } from './types';
import { cartToFrac, fracToCart } from './structure';

/** Digits after the point of a number as written ('0.25000000' → 8, '1e-3' → 0). */
const decimals = (text: string): number => /\.(\d*)/.exec(text)?.[1]?.length ?? 0;

/** `value` in the style of `original`: kept verbatim when equal at its precision, else at least 6 decimals, as wide. */
function restyle(original: string, old: number, value: number): string {
  const places = decimals(original);
  if (Math.abs(value - old) < 0.5 * 10 ** -places) return original;
  const text = value.toFixed(Math.max(places, 6));
  return text.padStart(original.length);
}

/** The line with its first numbers replaced in place, the spacing around them kept. */
function replaceNumbers(line: string, tokens: Token[], olds: readonly number[], values: readonly number[]): string {
  let out = '';
  let from = 0;
  values.forEach((value, k) => {
    const t = tokens[k]!;
    const styled = restyle(t.text, olds[k]!, value);
    // A wider number takes its extra characters from the spaces before it, keeping one.
    const before = line.slice(from, t.start);
    const spare = Math.max(0, Math.min(styled.length - t.text.length, before.length - (k === 0 ? 0 : 1)));
    out += before.slice(0, before.length - spare) + styled;
    from = t.end;
  });
  return out + line.slice(from);
}

const wrap = (f: Vec3): Vec3 =>
  f.map((x) => {
    const w = x - Math.floor(x);
    return w < 1 ? w : 0;
  }) as Vec3;

function sameLattice(a: Mat3, b: Mat3): boolean {
  return a.every((row, i) => row.every((x, j) => Math.abs(x - b[i]![j]!) < 1e-9));
}

const numberOf = (token: Token): number => Number(token.text.replace(/[dD]/, 'e'));

/**
 * What the file's lattice and Cartesian numbers are multiplied by: the scale (for a target volume, the
 * factor it implies; 1 once the cell changed, since the scale line is then rewritten as 1.0).
 */
function writtenFactors(input: Poscar, lines: readonly string[], cellChanged: boolean): Vec3 {
  const { kind, values } = input.scale;
  if (kind === 'triple') return values as Vec3;
  if (kind === 'factor') return [values[0]!, values[0]!, values[0]!];
  if (cellChanged) return [1, 1, 1];
  const raw = tokenize(lines[input.lines.lattice[0]]!).slice(0, 3).map(numberOf);
  const f = Math.hypot(...input.lattice[0]) / Math.hypot(...raw);
  return [f, f, f];
}

/** The lattice lines rewritten in the input's scale, where the run changed the cell. */
function rewriteLattice(lines: string[], input: Poscar, result: Mat3, factors: Vec3): void {
  if (input.scale.kind === 'volume') lines[input.lines.scale] = '1.0'; // a target volume no longer holds for a new cell
  input.lines.lattice.forEach((at, i) => {
    const tokens = tokenize(lines[at]!);
    const raw = result[i]!.map((x, k) => x / factors[k]!);
    lines[at] = replaceNumbers(lines[at]!, tokens, tokens.slice(0, 3).map(numberOf), raw);
  });
}

/** The site's three numbers in the input's coordinate mode, wrapped into the cell. */
function coordinates(input: Poscar, lattice: Mat3, frac: Vec3, factors: Vec3): Vec3 {
  const wrapped = wrap(frac);
  if (input.coordinateMode === 'Direct') return wrapped;
  return fracToCart(lattice, wrapped).map((x, k) => x / factors[k]!) as Vec3;
}

/** Whether the line's first three tokens are plain numbers (not run together): only those are rewritten. */
const threeNumbers = (tokens: Token[]): boolean => tokens.length >= 3 && tokens.slice(0, 3).every((t) => Number.isFinite(numberOf(t)));

/**
 * `resultText` (a POSCAR the service returned for `inputText`) in the input's layout, or `resultText` as it
 * is when the two cannot be matched atom for atom (another atom count or species order, unreadable lines).
 */
export function inInputLayout(inputText: string, resultText: string): string {
  const input = parsePoscar(inputText).poscar;
  const result = parsePoscar(resultText).poscar;
  if (!input || !result || input.sites.length !== result.sites.length) return resultText;
  if (input.sites.some((s, i) => s.species !== result.sites[i]!.species)) return resultText;
  const lines = inputText.split(/\r\n|\r|\n/);
  const rows = [...input.lines.lattice, ...input.sites.map((s) => s.line)].map((at) => tokenize(lines[at] ?? ''));
  if (!rows.every(threeNumbers)) return resultText;
  const cellChanged = !sameLattice(input.lattice, result.lattice);
  const factors = writtenFactors(input, lines, cellChanged);
  if (cellChanged) rewriteLattice(lines, input, result.lattice, factors);
  input.sites.forEach((site, i) => {
    const tokens = rows[3 + i]!;
    const values = coordinates(input, result.lattice, cartToFrac(result.lattice, result.sites[i]!.cart), factors);
    lines[site.line] = replaceNumbers(lines[site.line]!, tokens, tokens.slice(0, 3).map(numberOf), values);
  });
  // Velocities and predictor-corrector data of the input do not hold for the new positions.
  const eol = inputText.includes('\r\n') ? '\r\n' : '\n';
  return `${lines.slice(0, Math.max(...input.sites.map((s) => s.line)) + 1).join(eol)}${eol}`;
}
