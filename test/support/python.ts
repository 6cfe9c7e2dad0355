/**
 * The one way tests and benchmarks reach the reference libraries in Python (ASE, pymatgen, spglib): Debian's
 * python3-ase, python3-pymatgen and python3-spglib are in /usr/bin/python3 (a pyenv python3 on PATH does not see
 * them). An oracle that cannot run answers undefined, and its caller skips LOUDLY, naming what to install.
 */
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { existsSync } from 'node:fs';

export const PYTHON = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';

/** The exit status of an oracle script whose reference library does not import (see importsOrExit). */
export const MISSING_MODULES = 3;

/**
 * Python lines that import `modules` or exit with MISSING_MODULES: an oracle checks for its library in its own
 * process instead of a second one first (importing pymatgen alone takes two seconds of CPU).
 */
export const importsOrExit = (...modules: string[]): string =>
  `try:\n    import ${modules.join(', ')}\nexcept ImportError:\n    sys.exit(${MISSING_MODULES})\n`;

/** Whether an oracle's run found no Python, or a Python without its library (importsOrExit): the caller skips, saying so. */
export function oracleMissing(run: SpawnSyncReturns<string>): boolean {
  const error: object | undefined = run.error;
  return run.status === MISSING_MODULES || (error !== undefined && 'code' in error && error.code === 'ENOENT');
}

export interface PythonJob {
  /** Sent as JSON on stdin. */
  input?: unknown;
  maxBuffer?: number;
  timeout?: number;
}

/** What a script prints as JSON, given `job.input` as JSON on stdin; undefined when it fails (its library is absent). */
export function pythonJson<T>(script: string, job: PythonJob = {}): T | undefined {
  const run = spawnSync(PYTHON, ['-c', script], {
    input: job.input === undefined ? undefined : JSON.stringify(job.input),
    encoding: 'utf8',
    maxBuffer: job.maxBuffer ?? 64 << 20,
    timeout: job.timeout ?? 120_000,
  });
  return run.status === 0 ? (JSON.parse(run.stdout) as T) : undefined;
}
