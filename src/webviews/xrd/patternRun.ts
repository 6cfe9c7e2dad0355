/**
 * The powder pattern of a structure, computed here (core/crystallography/xrd.ts), as a finished "Powder pattern"
 * run: the same answer the service's /pxrd/compute gives, so the result view reads, plots and tabulates it as it
 * does the service's, with the measured pattern of an open diffraction file drawn over it and a match score.
 * A function of a structure (any reader's frame), not of a POSCAR document, so every structure format can use it.
 * Pure: no `vscode`.
 *
 * The score is matchPeaks of core/diffraction/peaks.ts (the measured scan's peaks after a SNIP background, paired
 * with the computed reflections within 0.2° after the best zero shift; the cosine of the two intensity vectors,
 * unpaired peaks included), not a whole-profile Rwp: an Rwp needs the instrument's peak shape and the sample's
 * background and texture, which a computed stick pattern does not know, so an unrefined Rwp says more about the
 * guessed profile than about whether the phase is there; the peak match judges positions and intensities only.
 */
import { findPeaks, matchPeaks, type XyPoint } from '../../core/diffraction/peaks';
import { toXrdData, type DiffractionPoint } from '../../core/diffraction/parse';
import { hklText, powderPattern, XRD_METHOD, type XrdPattern, type XrdStructure } from '../../core/crystallography/xrd';
import type { RunRecord } from '../../core/runs/run';

export const LOCAL_MATCH_METHOD =
  'peaks of the measured scan above its SNIP background, each paired with the nearest computed reflection within 0.2° 2θ ' +
  'after the best zero shift (±0.3°); score = cosine of the two intensity vectors, unpaired peaks included (0 to 1)';

export interface Measured {
  /** The diffraction file's name. */
  name: string;
  points: readonly DiffractionPoint[];
}

export interface PatternRunInput {
  structure: XrdStructure;
  /** The structure's file name, e.g. "POSCAR". */
  name: string;
  uri: string;
  wavelength: number;
  measured?: Measured;
  id: string;
  now: number;
}

/** The answer /pxrd/compute would give, from a computed pattern. */
export function patternAnswer(pattern: XrdPattern, name: string, measured?: Measured): Record<string, unknown> {
  const answer: Record<string, unknown> = {
    structure: name,
    wavelength: pattern.wavelength,
    two_theta_range: pattern.twoThetaRange,
    peaks: pattern.peaks.map((p) => ({
      two_theta: Number(p.twoTheta.toFixed(4)),
      d_spacing: Number(p.d.toFixed(5)),
      intensity: Number(p.intensity.toFixed(3)),
      hkl: p.families.map((f) => hklText(f.hkl)).join(', '),
      multiplicity: p.families.reduce((s, f) => s + f.multiplicity, 0),
    })),
    reflections: pattern.reflections,
    method: `${XRD_METHOD}; computed by Token Lens on this machine`,
  };
  if (pattern.limited) answer.note = pattern.limited.reason;
  if (measured) {
    const points: XyPoint[] = measured.points.map((p) => ({ two_theta: p.angle, intensity: p.intensity }));
    const sticks = pattern.peaks.map((p) => ({ two_theta: p.twoTheta, intensity: p.intensity }));
    const match = matchPeaks(sticks, findPeaks(points));
    answer.match = {
      measured: measured.name,
      score: Number(match.score.toFixed(3)),
      zero_shift: Number(match.shift.toFixed(3)),
      matched_peaks: match.matched,
      method: LOCAL_MATCH_METHOD,
    };
  }
  return answer;
}

/** The finished run: computed now. Throws XrdError when the structure has no pattern (unknown element, no cell). */
export function patternRun(input: PatternRunInput): RunRecord {
  const started = Date.now();
  const pattern = powderPattern(input.structure, { wavelength: input.wavelength });
  const request: Record<string, unknown> = { structure: input.name, wavelength: input.wavelength };
  if (input.measured) {
    request.measured = input.measured.name;
    request.xrd_data = toXrdData(input.measured.points);
  }
  return {
    id: input.id,
    kind: 'pxrd',
    inputUri: input.uri,
    inputName: input.measured ? `${input.name} over ${input.measured.name}` : input.name,
    inputText: JSON.stringify(request),
    startedAt: input.now,
    durationMs: Date.now() - started,
    state: 'done',
    response: { status: 200, headers: {}, body: { type: 'json', value: patternAnswer(pattern, input.name, input.measured) } },
  };
}
