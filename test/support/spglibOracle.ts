/**
 * spglib (Debian's python3-spglib, 2.0.2 here) as the oracle of the symmetry tests and the benchmark: one Python
 * subprocess for every structure. Structures come as lattice, fractional positions and atomic numbers, or as CIF
 * paths that pymatgen (python3-pymatgen) reads in the same process and hands to spglib, returning what it read so
 * that our search runs on exactly the same numbers. Undefined when /usr/bin/python3 lacks spglib; the caller says so.
 */
import { spawnSync } from 'node:child_process';
import { importsOrExit, MISSING_MODULES, oracleMissing, PYTHON } from './python';

export interface OracleInput {
  name: string;
  lattice: number[][];
  frac: number[][];
  numbers: number[];
}

export interface OracleCell {
  /** a, b, c, alpha, beta, gamma (Å, degrees). */
  params: number[];
  /** The Niggli-reduced cell's parameters (spglib.niggli_reduce): the lattice whatever basis was chosen. */
  niggli: number[];
  volume: number;
  n: number;
}

export interface OracleAnswer {
  number: number;
  international: string;
  wyckoffs: string[];
  site_symmetries: string[];
  /** spglib's equivalent_atoms. */
  orbits: number[];
  std: OracleCell;
  prim: OracleCell;
}

export interface OracleResult extends OracleInput {
  /** By symprec as written (String(x)); an error string when spglib found nothing. */
  answers: Record<string, OracleAnswer | { error: string }>;
  /** spglib.niggli_reduce's lattice parameters. */
  niggli: number[] | null;
}

const SCRIPT = String.raw`
import json, sys, warnings
warnings.filterwarnings('ignore')
${importsOrExit('numpy as np', 'spglib')}
req = json.load(sys.stdin)
def params(lat):
    lat = np.array(lat)
    a, b, c = (np.linalg.norm(v) for v in lat)
    ang = lambda u, v: float(np.degrees(np.arccos(np.clip(np.dot(u, v) / np.linalg.norm(u) / np.linalg.norm(v), -1, 1))))
    return [float(a), float(b), float(c), ang(lat[1], lat[2]), ang(lat[0], lat[2]), ang(lat[0], lat[1])]
structures = list(req['structures'])
skipped = []
if req.get('cifs'):
    try:
        from pymatgen.io.cif import CifParser
    except ImportError:
        sys.exit(${MISSING_MODULES})
    for path in req['cifs']:
        try:
            s = CifParser(path).get_structures(primitive=False)[0]
        except Exception as e:
            skipped.append({'name': path, 'reason': 'pymatgen cannot read it: ' + str(e)[:100]}); continue
        if not s.is_ordered:
            skipped.append({'name': path, 'reason': 'partial occupancies'}); continue
        if len(s) > req.get('max_atoms', 1000):
            skipped.append({'name': path, 'reason': f'{len(s)} atoms'}); continue
        structures.append({'name': path, 'lattice': s.lattice.matrix.tolist(), 'frac': s.frac_coords.tolist(), 'numbers': [int(z) for z in s.atomic_numbers]})
out = []
for st in structures:
    cell = (st['lattice'], st['frac'], st['numbers'])
    answers = {}
    for symprec in req['symprecs']:
        d = spglib.get_symmetry_dataset(cell, symprec=symprec)
        if d is None:
            answers[str(symprec)] = {'error': str(spglib.get_error_message())}; continue
        prim = spglib.standardize_cell(cell, to_primitive=True, no_idealize=False, symprec=symprec)
        cellOf = lambda lat, n: {'params': params(lat), 'niggli': params(spglib.niggli_reduce(lat)), 'volume': float(abs(np.linalg.det(lat))), 'n': n}
        answers[str(symprec)] = {'number': int(d['number']), 'international': d['international'], 'wyckoffs': list(d['wyckoffs']),
            'site_symmetries': list(d['site_symmetry_symbols']), 'orbits': [int(x) for x in d['equivalent_atoms']],
            'std': cellOf(d['std_lattice'], len(d['std_types'])), 'prim': cellOf(prim[0], len(prim[2]))}
    niggli = spglib.niggli_reduce(st['lattice'])
    out.append({**st, 'answers': answers, 'niggli': None if niggli is None else params(niggli)})
print(json.dumps({'results': out, 'skipped': skipped}))
`;

/** spglib's answers for each structure at each symprec, with the CIFs read by pymatgen; undefined without spglib. */
export function spglibOracle(
  structures: OracleInput[],
  symprecs: number[],
  cifs: string[] = [],
): { results: OracleResult[]; skipped: { name: string; reason: string }[] } | undefined {
  const run = spawnSync(PYTHON, ['-c', SCRIPT], {
    input: JSON.stringify({ structures, symprecs, cifs }),
    encoding: 'utf8',
    maxBuffer: 256 << 20,
    timeout: 300_000,
  });
  if (oracleMissing(run)) return undefined;
  if (run.status !== 0) throw new Error(`The spglib oracle failed: ${run.stderr.slice(-2000)}`);
  return JSON.parse(run.stdout);
}
