/**
 * The one way tests and benchmarks reach the reference libraries in Python (ASE, pymatgen, spglib): Debian's
 * python3-ase, python3-pymatgen and python3-spglib are in /usr/bin/python3 (a pyenv python3 on PATH does not see
 * them). An oracle that cannot run answers undefined, and its caller skips LOUDLY, naming what to install.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export const PYTHON = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';

/** Whether PYTHON imports these modules (`'spglib'`, `'pymatgen.io.cif'`). */
export function pythonHas(...modules: string[]): boolean {
  return spawnSync(PYTHON, ['-c', `import ${modules.join(', ')}`], { encoding: 'utf8' }).status === 0;
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
