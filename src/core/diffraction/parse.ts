/**
 * Diffraction-data files (*.xy, *.xrd): one measured point a line, the diffraction angle 2θ in degrees
 * and the relative intensity, separated by spaces, tabs, a comma or a semicolon. Blank lines and
 * comments (`#`, `!`, `;`, `%` first) are skipped, and so is a header line of words before the first
 * point ("2theta intensity"). Pure: no vscode; the editor, the commands and the tests share it.
 */
import { ENGLISH, type Locale } from '../util/locale';

export interface DiffractionPoint {
  /** 2θ, degrees */
  angle: number;
  intensity: number;
  /** 0-based line in the text */
  line: number;
}

export interface DiffractionDiagnostic {
  severity: 'error' | 'warning';
  code: 'not-two-numbers' | 'angle-range' | 'negative-intensity' | 'no-data' | 'not-increasing' | 'more-problems';
  message: string;
  /** 0-based line and the character range of the offending part. */
  line: number;
  start: number;
  end: number;
}

export interface DiffractionData {
  points: DiffractionPoint[];
  diagnostics: DiffractionDiagnostic[];
}

const COMMENT = /^[#!;%]/;
/** A number as Python's float() reads one, Fortran D exponents too; no NaN, no infinities. */
const NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)([eEdD][-+]?\d+)?$/;

function toNumber(token: string): number | undefined {
  if (!NUMBER.test(token)) return undefined;
  const value = Number(token.replace(/[dD]/, 'e'));
  return Number.isFinite(value) ? value : undefined;
}

/** Tokens of a line with their character ranges. */
interface Token {
  text: string;
  start: number;
  end: number;
}

function tokens(line: string): Token[] {
  const found: { text: string; start: number; end: number }[] = [];
  const pattern = /[^\s,;]+/g;
  for (let m = pattern.exec(line); m; m = pattern.exec(line)) found.push({ text: m[0], start: m.index, end: m.index + m[0].length });
  return found;
}

export function parseDiffraction(text: string, locale: Locale = ENGLISH): DiffractionData {
  const { t } = locale;
  const points: DiffractionPoint[] = [];
  const diagnostics: DiffractionDiagnostic[] = [];
  const lines = text.split(/\r\n|\r|\n/);
  let previous: DiffractionPoint | undefined;
  lines.forEach((raw, line) => {
    const problem: Problem = (severity, code, span, message) =>
      diagnostics.push({ severity, code, line, start: span.start, end: span.end, message: t('Line {0}: {1}', line + 1, message) });
    const point = readPoint(raw, points.length === 0 && diagnostics.length === 0, problem);
    if (!point) return;
    const inRange = point.angle > 0 && point.angle < 180;
    if (previous && inRange && point.angle <= previous.angle) {
      problem(
        'warning',
        'not-increasing',
        point.spans[0],
        `the angle ${point.spans[0].text} does not increase on the line before (${previous.angle}); the points are read as given`,
      );
    }
    const kept = { angle: point.angle, intensity: point.intensity, line };
    points.push(kept);
    if (inRange) previous = kept;
  });
  if (points.length === 0) {
    const message = 'No data: write one point a line, the angle 2θ in degrees and the relative intensity, e.g. "28.44 100"';
    diagnostics.push({ severity: 'error', code: 'no-data', line: 0, start: 0, end: lines[0]?.length ?? 0, message });
  }
  return { points, diagnostics: capped(diagnostics, locale) };
}

type Problem = (
  severity: DiffractionDiagnostic['severity'],
  code: DiffractionDiagnostic['code'],
  span: { start: number; end: number },
  message: string,
) => void;
const TWO_NUMBERS = 'expected two numbers, the angle 2θ and the intensity';

/** One line's point, with its problems reported; undefined for a blank, comment or header line, or one that is not a point. */
function readPoint(raw: string, first: boolean, problem: Problem): { angle: number; intensity: number; spans: [Token, Token] } | undefined {
  const trimmed = raw.trim();
  if (!trimmed || COMMENT.test(trimmed)) return undefined;
  const parts = tokens(raw);
  if (parts.length === 0) {
    const start = raw.length - raw.trimStart().length;
    problem('error', 'not-two-numbers', { start, end: start + trimmed.length }, `${TWO_NUMBERS} (found only separators)`);
    return undefined;
  }
  const values = parts.map((p) => toNumber(p.text));
  if (first && values.every((v) => v === undefined) && /[a-z]/i.test(trimmed)) return undefined; // a header
  const head = parts[0]!;
  const tail = parts[parts.length - 1]!;
  if (parts.length !== 2 || values.some((v) => v === undefined)) {
    const found = parts.length === 1 ? 'one value' : parts.length > 2 ? `${parts.length} values` : `'${trimmed.slice(0, 40)}'`;
    const bad = parts.find((_, i) => values[i] === undefined);
    const what = bad && parts.length === 2 ? `'${bad.text}', not a number` : found;
    problem('error', 'not-two-numbers', { start: (bad ?? head).start, end: (bad ?? tail).end }, `${TWO_NUMBERS} (found ${what})`);
    return undefined;
  }
  const [angle, intensity] = values as [number, number];
  if (!(angle > 0 && angle < 180))
    problem('error', 'angle-range', head, `the angle 2θ must lie between 0 and 180 degrees (found ${head.text})`);
  if (intensity < 0) problem('error', 'negative-intensity', tail, `the intensity must not be negative (found ${tail.text})`);
  return { angle, intensity, spans: [head, tail] };
}

/** Problems kept for one file: a hostile file of a million bad lines must not flood the editor. */
export const MAX_DIAGNOSTICS = 1000;

function capped(diagnostics: DiffractionDiagnostic[], { t }: Locale): DiffractionDiagnostic[] {
  if (diagnostics.length <= MAX_DIAGNOSTICS) return diagnostics;
  const kept = diagnostics.slice(0, MAX_DIAGNOSTICS);
  const last = kept[kept.length - 1]!;
  const more = diagnostics.length - MAX_DIAGNOSTICS;
  return [
    ...kept,
    {
      ...last,
      severity: 'warning',
      code: 'more-problems',
      message: t('Line {0}: … and {1} more problems not shown (at most {2} are listed)', last.line + 1, more, MAX_DIAGNOSTICS),
    },
  ];
}

/** The text the service takes as xrd_data: "angle intensity" lines, nothing else. */
export function toXrdData(points: readonly DiffractionPoint[]): string {
  return points.map((p) => `${p.angle} ${p.intensity}`).join('\n');
}

export function errorsOf(data: DiffractionData): DiffractionDiagnostic[] {
  return data.diagnostics.filter((d) => d.severity === 'error');
}
