/**
 * `node dist/cli.js xrd [--wavelength Å] [--two-theta-max DEG] FILE`: the powder pattern of a POSCAR file, computed
 * locally by the core (core/crystallography/xrd.ts), as JSON. Its own module so cli.ts only lists it.
 */
import { readFileSync } from 'node:fs';
import { CU_K_ALPHA1, hklText, MAX_WAVELENGTH, MIN_WAVELENGTH, powderPattern, XRD_METHOD, XrdError } from './core/crystallography/xrd';
import { parsePoscar } from './core/poscar/index';

export const XRD_USAGE = `Usage: node dist/cli.js xrd [--wavelength Å] [--two-theta-max DEG] FILE
Prints the X-ray powder pattern of a POSCAR/CONTCAR file (standard input for -) as JSON: {file,
wavelength, two_theta_range, method, peaks}, each peak {two_theta, intensity (the strongest is 100), hkl,
d_spacing, families: [{hkl, multiplicity}]}. The wavelength defaults to Cu Kα1 (${CU_K_ALPHA1} Å); 2θ runs
to 90° unless --two-theta-max says otherwise. Exit code 1 when the file cannot be read as a structure.`;

const fail = (message: string): number => {
  process.stderr.write(`${message}\n${XRD_USAGE}\n`);
  return 2;
};

/** A number option's value, or a message. */
function numberOption(name: string, value: string | undefined, lo: number, hi: number): number | string {
  const v = value === undefined ? NaN : Number(value);
  return Number.isFinite(v) && v >= lo && v <= hi ? v : `${name} takes a number from ${lo} to ${hi}, not "${value ?? ''}".`;
}

export function xrd(rest: string[]): number {
  let wavelength = CU_K_ALPHA1;
  let twoThetaMax = 90;
  let file: string | undefined;
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!;
    if (arg === '--wavelength' || arg === '--two-theta-max') {
      const v =
        arg === '--wavelength' ? numberOption(arg, rest[++i], MIN_WAVELENGTH, MAX_WAVELENGTH) : numberOption(arg, rest[++i], 1, 180);
      if (typeof v === 'string') return fail(v);
      if (arg === '--wavelength') wavelength = v;
      else twoThetaMax = v;
    } else if (arg.startsWith('-') && arg !== '-') return fail(`Unknown option "${arg}".`);
    else if (file === undefined) file = arg;
    else return fail('Give one file.');
  }
  if (file === undefined) return fail('Give a POSCAR file (- for standard input).');
  let text: string;
  try {
    text = readFileSync(file === '-' ? 0 : file, 'utf8');
  } catch (error) {
    return fail(`Cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}.`);
  }
  const { poscar, diagnostics } = parsePoscar(text);
  const errors = diagnostics.filter((d) => d.severity === 'error');
  if (!poscar || errors.length > 0) {
    process.stderr.write(`${file}: ${errors[0]?.message ?? 'not a structure'}\n`);
    return 1;
  }
  try {
    const pattern = powderPattern(
      { lattice: poscar.lattice, species: poscar.sites.map((s) => s.species), positions: poscar.sites.map((s) => s.cart) },
      { wavelength, twoThetaMax },
    );
    const report = {
      file,
      wavelength,
      two_theta_range: pattern.twoThetaRange,
      method: XRD_METHOD,
      ...(pattern.limited ? { limited: pattern.limited.reason } : {}),
      peaks: pattern.peaks.map((p) => ({
        two_theta: Number(p.twoTheta.toFixed(4)),
        intensity: Number(p.intensity.toFixed(3)),
        hkl: hklText(p.families[0]!.hkl),
        d_spacing: Number(p.d.toFixed(5)),
        families: p.families.map((f) => ({ hkl: f.hkl, multiplicity: f.multiplicity })),
      })),
    };
    process.stdout.write(`${JSON.stringify(report)}\n`);
    return 0;
  } catch (error) {
    if (!(error instanceof XrdError)) throw error;
    process.stderr.write(`${file}: ${error.message}\n`);
    return 1;
  }
}
