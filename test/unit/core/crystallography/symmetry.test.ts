/**
 * Symmetry by moyo-wasm against spglib (the field's reference library; Debian's python3-spglib) on every real
 * structure the tests hold: the POSCAR fixtures, the reference server's materials and every CIF of Debian's
 * pymatgen-test-files (read by pymatgen in the oracle's process), at symprec 1e-3 and 1e-1: space group number,
 * Hermann–Mauguin symbol as spglib writes it, Wyckoff letters, standardized conventional and primitive cells.
 * Then the cell operations: supercells and Niggli cells keep the reduced formula and the volume ratio (fast-check),
 * Niggli reduction is idempotent and agrees with spglib's niggli_reduce, symmetrize keeps the group.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import { cellOfPoscar, metric, reducedFormulaKey, typeNumbers, wrapCell, type Cell } from '../../../../src/core/crystallography/cell';
import { niggliReduce } from '../../../../src/core/crystallography/niggli';
import { niggliCell, parseSupercellMatrix, supercell, symmetrizeCell } from '../../../../src/core/crystallography/operations';
import { standardCells } from '../../../../src/core/crystallography/standard';
import { analyzeSymmetry, SymmetryFinder, type MoyoBindings } from '../../../../src/core/crystallography/symmetry';
import { parsePoscar } from '../../../../src/core/poscar';
import { element } from '../../../../src/core/poscar/elements';
import { latticeParameters, volume } from '../../../../src/core/poscar/structure';
import type { Mat3, Vec3 } from '../../../../src/core/poscar/types';
import { MATERIALS } from '../../../../src/server/materials';
import { loadMoyoNode } from '../../../../src/platform/moyoNode';
import { cubicCell, DIAMOND } from '../../../support/cubicCells';
import { spglibOracle, type OracleInput } from '../../../support/spglibOracle';

const SYMPRECS = [1e-3, 1e-1];
const FIXTURES = path.join(__dirname, '../../../../../test/fixtures/poscar');
const PYMATGEN_FILES = '/usr/share/doc/pymatgen-test-files/examples/test_files';

let oracleCache: ReturnType<typeof spglibOracle> | null = null;
/** One subprocess for every structure and both tolerances, shared by the tests. */
const oracle = () => (oracleCache ??= spglibOracle([...fixtureInputs(), ...materialInputs()], SYMPRECS, cifPaths()));

let moyoPromise: Promise<MoyoBindings> | undefined;
const moyo = (): Promise<MoyoBindings> => (moyoPromise ??= loadMoyoNode());

function fixtureInputs(): OracleInput[] {
  return readdirSync(FIXTURES).flatMap((file) => {
    const { poscar } = parsePoscar(readFileSync(path.join(FIXTURES, file), 'utf8'));
    if (!poscar) return [];
    const cell = cellOfPoscar(poscar);
    return [{ name: `fixture ${file}`, lattice: cell.lattice, frac: cell.frac, numbers: typeNumbers(cell.species) }];
  });
}

function materialInputs(): OracleInput[] {
  return MATERIALS.flatMap((m) =>
    m.structure
      ? [
          {
            name: `material ${m.jid} ${m.formula}`,
            lattice: m.structure.lattice,
            frac: m.structure.frac,
            numbers: m.structure.species.map((s) => element(s)!.z),
          },
        ]
      : [],
  );
}

function cifPaths(): string[] {
  try {
    return readdirSync(PYMATGEN_FILES)
      .filter((f) => f.endsWith('.cif'))
      .map((f) => path.join(PYMATGEN_FILES, f));
  } catch {
    return [];
  }
}

/** A cell from the oracle's numbers: species are the atomic numbers' symbols (or the number for a placeholder). */
function cellOf(input: OracleInput): Cell {
  return {
    lattice: input.lattice as Mat3,
    frac: input.frac as Vec3[],
    species: input.numbers.map((z) => (z < 1000 ? String(z) : `X${z}`)),
  };
}

const close = (a: number[], b: number[], tol: number): boolean => a.length === b.length && a.every((x, i) => Math.abs(x - b[i]!) <= tol);
const params = (l: Mat3): number[] => {
  const p = latticeParameters(l);
  return [p.a, p.b, p.c, p.alpha, p.beta, p.gamma];
};

test('space groups, symbols, Wyckoff letters and standard cells equal spglib on every real structure, at symprec 1e-3 and 1e-1', async (t) => {
  const cifs = cifPaths();
  if (cifs.length === 0) t.diagnostic('SKIPPED LOUDLY: no CIFs (install Debian package pymatgen-test-files); fixtures and materials only');
  const answers = oracle();
  if (!answers) {
    t.skip('SKIPPED LOUDLY: spglib is not installed for /usr/bin/python3 (apt-get install python3-spglib python3-pymatgen)');
    return;
  }
  const bindings = await moyo();
  const problems: string[] = [];
  let compared = 0;
  let letterChoices = 0;
  for (const s of answers.results) {
    for (const symprec of SYMPRECS) {
      const answer = s.answers[String(symprec)]!;
      let ours;
      try {
        ours = analyzeSymmetry(bindings, cellOf(s), symprec);
      } catch (error) {
        if ('error' in answer) continue; // both found nothing
        problems.push(`${s.name} @${symprec}: we failed (${(error as Error).message}), spglib ${answer.number}`);
        continue;
      }
      if ('error' in answer) {
        problems.push(`${s.name} @${symprec}: spglib failed (${answer.error}), we found ${ours.number}`);
        continue;
      }
      compared++;
      const where = `${s.name} @${symprec}`;
      if (ours.number !== answer.number) problems.push(`${where}: number ${ours.number} vs spglib ${answer.number}`);
      else {
        if (ours.symbol !== answer.international) problems.push(`${where}: symbol ${ours.symbol} vs spglib ${answer.international}`);
        // Wyckoff letters: equal, or (where the two choose another origin among those the group's Euclidean
        // normalizer allows, e.g. Fd-3m's 8a and 8b) the same orbits with the same site symmetries.
        if (ours.wyckoffs.join('') !== answer.wyckoffs.join('')) {
          letterChoices++;
          const sameOrbits = ours.orbits.every(
            (o, i) => ours.orbits[i] === ours.orbits[o] && answer.orbits[i] === answer.orbits[answer.orbits[o]!],
          );
          const partition = (orbits: number[]) => orbits.map((o) => orbits.indexOf(o)).join(',');
          if (
            !sameOrbits ||
            partition(ours.orbits) !== partition(answer.orbits) ||
            ours.siteSymmetries.join(' ') !== answer.site_symmetries.join(' ')
          ) {
            problems.push(
              `${where}: Wyckoffs ${ours.wyckoffs.join('')} (${ours.siteSymmetries.join(' ')}) vs spglib ${answer.wyckoffs.join('')} (${answer.site_symmetries.join(' ')})`,
            );
          }
        }
        const cells = standardCells(bindings, ours);
        for (const [kind, cell, theirs] of [
          ['conventional', cells.conventional, answer.std],
          ['primitive', cells.primitive, answer.prim],
        ] as const) {
          if (cell.frac.length !== theirs.n) problems.push(`${where}: ${kind} cell has ${cell.frac.length} atoms vs spglib ${theirs.n}`);
          // The same lattice whatever basis each chose: the Niggli cells agree, lengths to 1e-4 of their size (both
          // idealize; spglib averages lengths, we the metric), angles to 0.01°. The standard cell's own lengths agree
          // too where the basis is fixed by the system (not monoclinic or triclinic).
          const ok = (p: number[], q: number[]) =>
            close(p.slice(0, 3), q.slice(0, 3), 1e-4 * Math.max(...q.slice(0, 3))) && close(p.slice(3), q.slice(3), 1e-2);
          const niggli = params(niggliReduce(cell.lattice).lattice);
          if (!ok(niggli, theirs.niggli)) {
            problems.push(
              `${where}: ${kind} Niggli cell ${niggli.map((x) => x.toFixed(4))} vs spglib ${theirs.niggli.map((x) => x.toFixed(4))}`,
            );
          }
          const own = params(cell.lattice);
          const sorted = (p: number[]) => [...p.slice(0, 3)].sort((a, b) => a - b);
          if (kind === 'conventional' && ours.number > 15 && !close(sorted(own), sorted(theirs.params), 1e-4 * theirs.params[0]!)) {
            problems.push(`${where}: ${kind} cell ${own.map((x) => x.toFixed(4))} vs spglib ${theirs.params.map((x) => x.toFixed(4))}`);
          }
        }
      }
    }
  }
  t.diagnostic(
    `${answers.results.length} structures (${cifs.length} CIFs offered; skipped: ${answers.skipped.map((s) => `${path.basename(s.name)} (${s.reason})`).join(', ') || 'none'}), ${compared} comparisons, ${letterChoices} with another origin's Wyckoff letters`,
  );
  assert.ok(compared >= 100, `only ${compared} comparisons, ${letterChoices} with another origin's Wyckoff letters`);
  assert.deepEqual(problems, []);
});

// ---- cell operations -----------------------------------------------------------------------------------------

const SPECIES = ['Si', 'O', 'Fe', 'Li'];

/** A random cell: a lattice of three non-degenerate vectors and up to 6 atoms. */
const arbCell = fc
  .record({
    lattice: fc.tuple(
      ...[0, 1, 2].map((i) =>
        fc.tuple(...[0, 1, 2].map((k) => fc.double({ min: i === k ? 2 : -1.5, max: i === k ? 6 : 1.5, noNaN: true }))),
      ),
    ),
    // Distinct sites: points of a 10×10×10 grid, each nudged by less than a tenth of its spacing.
    atoms: fc.uniqueArray(
      fc.tuple(fc.constantFrom(...SPECIES), fc.tuple(fc.nat(9), fc.nat(9), fc.nat(9)), fc.double({ min: 0, max: 0.009, noNaN: true })),
      {
        minLength: 1,
        maxLength: 6,
        selector: (a) => a[1].join(','),
      },
    ),
  })
  .map(({ lattice, atoms }): Cell => ({
    lattice: lattice as Mat3,
    frac: atoms.map((a) => a[1].map((k) => k / 10 + a[2]) as Vec3),
    species: atoms.map((a) => a[0]),
  }));

/** Integer matrices with entries in −2…2 and a positive determinant of at most 12. */
const arbMatrix = fc
  .tuple(...Array.from({ length: 9 }, () => fc.integer({ min: -2, max: 2 })))
  .map((v): Mat3 => [
    [v[0]!, v[1]!, v[2]!],
    [v[3]!, v[4]!, v[5]!],
    [v[6]!, v[7]!, v[8]!],
  ])
  .filter((m) => {
    const d = Math.round(volume(m) * Math.sign(determinantOf(m)));
    return d > 0 && d <= 12;
  });

function determinantOf(m: Mat3): number {
  return (
    m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) -
    m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
    m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
  );
}

/** Every position of `a` has a position of `b` of the same species within 1e-6 Å (periodic images). */
function sameAtoms(a: Cell, b: Cell): boolean {
  return a.frac.length === b.frac.length && images(a, b);
}

/** Every atom of `a` is an atom of `b` of the same species moved by a lattice vector of b. */
function images(a: Cell, b: Cell): boolean {
  return a.frac.every((f, i) => {
    const cart = [0, 1, 2].map((k) => f[0] * a.lattice[0][k]! + f[1] * a.lattice[1][k]! + f[2] * a.lattice[2][k]!);
    return b.frac.some((g, j) => {
      if (b.species[j] !== a.species[i]) return false;
      const c2 = [0, 1, 2].map((k) => g[0] * b.lattice[0][k]! + g[1] * b.lattice[1][k]! + g[2] * b.lattice[2][k]!);
      // The difference must be a lattice vector of b.
      const d = [cart[0]! - c2[0]!, cart[1]! - c2[1]!, cart[2]! - c2[2]!];
      const x = solve(b.lattice, d as Vec3);
      return x.every((v) => Math.abs(v - Math.round(v)) < 1e-6);
    });
  });
}

/** Fractional coordinates of a Cartesian vector in a lattice (rows). */
function solve(l: Mat3, cart: Vec3): Vec3 {
  const det = determinantOf(l);
  const col = (k: number) => [0, 1, 2].map((i) => (i === k ? cart : l[i]!)) as Mat3;
  return [determinantOf(col(0)) / det, determinantOf(col(1)) / det, determinantOf(col(2)) / det];
}

test('a supercell has det P times the atoms, the same reduced formula, det P times the volume, and the original as its sublattice', () => {
  fc.assert(
    fc.property(arbCell, arbMatrix, (cell, p) => {
      const det = Math.round(determinantOf(p));
      const big = supercell(cell, p);
      assert.equal(big.frac.length, det * cell.frac.length);
      assert.equal(reducedFormulaKey(big.species), reducedFormulaKey(cell.species));
      assert.ok(Math.abs(volume(big.lattice) / volume(cell.lattice) - det) < 1e-9 * det);
      assert.ok(big.frac.every((f) => f.every((x) => x >= 0 && x < 1)));
      // No two atoms coincide: the lattice points enumerated are distinct modulo the supercell.
      const keys = new Set(big.frac.map((f, i) => `${big.species[i]}:${f.map((x) => Math.round(x * 1e6) % 1e6).join(',')}`));
      assert.equal(keys.size, big.frac.length);
      // Each supercell atom is an original atom moved by a lattice vector of the original: with the count and
      // the distinctness above, the supercell holds exactly the original's atoms repeated.
      assert.ok(images(big, cell));
    }),
    { numRuns: 200, seed: 29 },
  );
});

test('supercell matrices: three integers or nine, det > 0 and an atom limit, each refused with a message', () => {
  assert.deepEqual(parseSupercellMatrix('2 2 1'), [
    [2, 0, 0],
    [0, 2, 0],
    [0, 0, 1],
  ]);
  assert.deepEqual(parseSupercellMatrix('[[1,1,0],[-1,1,0],[0,0,1]]'), [
    [1, 1, 0],
    [-1, 1, 0],
    [0, 0, 1],
  ]);
  assert.match(String(parseSupercellMatrix('2 2')), /three whole numbers/);
  assert.match(String(parseSupercellMatrix('2 x 1')), /whole numbers/);
  const cell: Cell = { lattice: cubicCell(3), frac: [[0, 0, 0]], species: ['Cu'] };
  assert.throws(
    () =>
      supercell(cell, [
        [0, 1, 0],
        [1, 0, 0],
        [0, 0, 1],
      ]),
    /determinant is -1/,
  );
  assert.throws(
    () =>
      supercell(cell, [
        [100, 0, 0],
        [0, 100, 0],
        [0, 0, 100],
      ]),
    /1,000,000 atoms; the limit is 100,000/,
  );
  // √2×√2 rotated cell of a square lattice: 2 atoms, at (0,0) and (½,½).
  const rotated = supercell(cell, [
    [1, 1, 0],
    [-1, 1, 0],
    [0, 0, 1],
  ]);
  assert.deepEqual(rotated.frac.map((f) => f.map((x) => Math.round(x * 1e9) / 1e9)).sort(), [
    [0, 0, 0],
    [0.5, 0.5, 0],
  ]);
});

test('Niggli reduction keeps the lattice (volume, formula, atoms) and is idempotent', () => {
  fc.assert(
    fc.property(
      arbCell,
      arbMatrix.filter((m) => Math.round(determinantOf(m)) === 1),
      (cell, unimodular) => {
        // A skewed basis of the same lattice reduces to the same Niggli cell.
        const skewed = supercell(cell, unimodular);
        const a = niggliCell(cell);
        const b = niggliCell(skewed);
        assert.ok(Math.abs(volume(a.lattice) - volume(cell.lattice)) < 1e-9 * volume(cell.lattice));
        assert.equal(reducedFormulaKey(a.species), reducedFormulaKey(cell.species));
        const pa = params(a.lattice);
        const pb = params(b.lattice);
        assert.ok(close(pa, pb, 1e-6 * Math.max(...pa)), `${pa} vs ${pb}`);
        const again = niggliReduce(a.lattice);
        assert.deepEqual(again.transform, [
          [1, 0, 0],
          [0, 1, 0],
          [0, 0, 1],
        ]);
        assert.ok(sameAtoms(cell, a));
      },
    ),
    { numRuns: 200, seed: 1976 },
  );
});

test("Niggli cells equal spglib's niggli_reduce on every real structure", async (t) => {
  const answers = oracle();
  if (!answers) {
    t.skip('SKIPPED LOUDLY: spglib is not installed for /usr/bin/python3 (apt-get install python3-spglib python3-pymatgen)');
    return;
  }
  for (const s of answers.results) {
    const ours = params(niggliReduce(s.lattice as Mat3).lattice);
    assert.ok(s.niggli && close(ours, s.niggli, 1e-6 * Math.max(...ours)), `${s.name}: ${ours} vs spglib ${s.niggli}`);
  }
});

test('wrap and symmetrize: positions in [0, 1), a shaken structure symmetrized has its group back at a tight tolerance', async () => {
  const bindings = await moyo();
  const a = 5.43;
  const si: Cell = { lattice: cubicCell(a), frac: [...DIAMOND], species: Array(8).fill('Si') };
  let seed = 7;
  const noise = () => ((seed = (seed * 16807) % 2147483647) / 2147483647 - 0.5) * 2e-3;
  const shaken: Cell = {
    ...si,
    lattice: si.lattice.map((r) => r.map((x) => x + noise())) as Mat3,
    frac: si.frac.map((f) => f.map((x) => x + noise() - 1) as Vec3),
  };
  assert.ok(wrapCell(shaken).frac.every((f) => f.every((x) => x >= 0 && x < 1)));
  assert.notEqual(analyzeSymmetry(bindings, shaken, 1e-5).number, 227);
  const found = analyzeSymmetry(bindings, shaken, 1e-2);
  assert.equal(found.number, 227);
  const symmetric = symmetrizeCell(shaken, found);
  assert.equal(analyzeSymmetry(bindings, symmetric, 1e-6).number, 227);
  const g = metric(symmetric.lattice);
  assert.ok(Math.abs(g[0][1]) < 1e-9 && Math.abs(g[0][0] - g[2][2]) < 1e-9);
});

test('the finder loads moyo on its first search only, reports a failed load and stays usable', async () => {
  let loads = 0;
  const failing = new SymmetryFinder(async () => {
    loads++;
    throw new Error('no bytes');
  });
  assert.equal(loads, 0);
  const cell: Cell = { lattice: cubicCell(3), frac: [[0, 0, 0]], species: ['Po'] };
  const outcome = await failing.find(cell);
  assert.equal(outcome.ok, false);
  assert.match(!outcome.ok ? outcome.reason : '', /could not be loaded: no bytes/);
  const slow = new SymmetryFinder(() => new Promise(() => {}), 50);
  const timedOut = await slow.find(cell);
  assert.match(!timedOut.ok ? timedOut.reason : '', /took over 0.05 s/);
  const finder = new SymmetryFinder(moyo);
  assert.equal(finder.loaded, false);
  const ok = await finder.find(cell, 1e-3);
  assert.ok(ok.ok && ok.result.number === 221 && ok.result.symbol === 'Pm-3m' && ok.result.bravais === 'cP');
  assert.equal(finder.loaded, true);
  const tooClose = await finder.find(
    {
      ...cell,
      frac: [
        [0, 0, 0],
        [0, 0, 1e-4],
      ],
      species: ['Po', 'Po'],
    },
    1e-3,
  );
  assert.equal(tooClose.ok, false);
  const tooMany = await finder.find({ ...cell, frac: Array(20_001).fill([0, 0, 0]), species: Array(20_001).fill('Po') });
  assert.match(!tooMany.ok ? tooMany.reason : '', /up to 20,000 atoms; this structure has 20,001/);
  const auto = await finder.find({ ...cell, frac: Array(301).fill([0, 0, 0]), species: Array(301).fill('Po') }, 1e-3, 300);
  assert.match(!auto.ok ? auto.reason : '', /up to 300 atoms by itself \(the cell commands and the CLI take up to 20,000\)/);
  assert.match(!(await finder.find(cell, 0)).ok ? 'refused' : '', /refused/);
});
