/**
 * Diffraction-data files (*.xy, *.xrd): one measured point a line, the diffraction angle 2θ in degrees
 * and the relative intensity, separated by spaces, tabs, a comma or a semicolon. Blank lines and
 * comments (`#`, `!`, `;`, `%` first) are skipped, and so is a header line of words before the first
 * point ("2theta intensity"). Pure: no vscode; the editor, the commands and the tests share it.
 */

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
function tokens(line: string): { text: string; start: number; end: number }[] {
  const found: { text: string; start: number; end: number }[] = [];
  const pattern = /[^\s,;]+/g;
  for (let m = pattern.exec(line); m; m = pattern.exec(line)) found.push({ text: m[0], start: m.index, end: m.index + m[0].length });
  return found;
}

export function parseDiffraction(text: string): DiffractionData {
  const points: DiffractionPoint[] = [];
  const diagnostics: DiffractionDiagnostic[] = [];
  const lines = text.split(/\r\n|\r|\n/);
  let previous: DiffractionPoint | undefined;
  lines.forEach((raw, line) => {
    const trimmed = raw.trim();
    if (!trimmed || COMMENT.test(trimmed)) return;
    const parts = tokens(raw);
    if (parts.length === 0) {
      const start = raw.length - raw.trimStart().length;
      diagnostics.push({
        severity: 'error',
        code: 'not-two-numbers',
        line,
        start,
        end: start + trimmed.length,
        message: `Line ${line + 1}: expected two numbers, the angle 2θ and the intensity (found only separators)`,
      });
      return;
    }
    const values = parts.map((p) => toNumber(p.text));
    const header = points.length === 0 && diagnostics.length === 0 && values.every((v) => v === undefined) && /[a-z]/i.test(trimmed);
    if (header) return;
    const first = parts[0]!;
    const last = parts[parts.length - 1]!;
    if (parts.length !== 2 || values.some((v) => v === undefined)) {
      const found = parts.length === 1 ? 'one value' : parts.length > 2 ? `${parts.length} values` : `'${trimmed.slice(0, 40)}'`;
      const bad = parts.find((_, i) => values[i] === undefined);
      diagnostics.push({
        severity: 'error',
        code: 'not-two-numbers',
        line,
        start: (bad ?? first).start,
        end: (bad ?? last).end,
        message: `Line ${line + 1}: expected two numbers, the angle 2θ and the intensity (found ${bad && parts.length === 2 ? `'${bad.text}', not a number` : found})`,
      });
      return;
    }
    const [angle, intensity] = values as [number, number];
    const point = { angle, intensity, line };
    const inRange = angle > 0 && angle < 180;
    if (!inRange) {
      diagnostics.push({
        severity: 'error',
        code: 'angle-range',
        line,
        start: first.start,
        end: first.end,
        message: `Line ${line + 1}: the angle 2θ must lie between 0 and 180 degrees (found ${first.text})`,
      });
    }
    if (intensity < 0) {
      diagnostics.push({
        severity: 'error',
        code: 'negative-intensity',
        line,
        start: last.start,
        end: last.end,
        message: `Line ${line + 1}: the intensity must not be negative (found ${last.text})`,
      });
    }
    if (previous && inRange && angle <= previous.angle) {
      diagnostics.push({
        severity: 'warning',
        code: 'not-increasing',
        line,
        start: first.start,
        end: first.end,
        message: `Line ${line + 1}: the angle ${first.text} does not increase on the line before (${previous.angle}); the points are read as given`,
      });
    }
    points.push(point);
    if (inRange) previous = point;
  });
  if (points.length === 0) {
    diagnostics.push({
      severity: 'error',
      code: 'no-data',
      line: 0,
      start: 0,
      end: lines[0]?.length ?? 0,
      message: 'No data: write one point a line, the angle 2θ in degrees and the relative intensity, e.g. "28.44 100"',
    });
  }
  return { points, diagnostics: capped(diagnostics) };
}

/** Problems kept for one file: a hostile file of a million bad lines must not flood the editor. */
export const MAX_DIAGNOSTICS = 1000;

function capped(diagnostics: DiffractionDiagnostic[]): DiffractionDiagnostic[] {
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
      message: `Line ${last.line + 1}: … and ${more} more problems not shown (at most ${MAX_DIAGNOSTICS} are listed)`,
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
