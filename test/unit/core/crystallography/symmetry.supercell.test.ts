/**
 * Supercells: the search reduces a cell to its primitive cell by its pure translations (primitive.ts) before moyo
 * runs, then maps the answer back. On real structures (the reference server's materials, the POSCAR fixtures)
 * repeated 2×2×2, 3×3×3, 5×5×5 and along a rotated matrix, the group equals the unit cell's and spglib's on the
 * same supercell (Debian's python3-spglib), the operations of a diagonal supercell are the unit cell's times the
 * cells repeated, and up to 250 atoms (where moyo alone is quick) every site's site symmetry and orbit and the
 * operations equal what moyo gives for the whole supercell (the answer before the reduction existed), the Wyckoff
 * letters moyo's or spglib's (the two may pick another origin the group allows, Fd-3m's 8a or 8b). Then the worker the desktop searches on
 * (platform/symmetryPool.ts): the same answer, a timeout and a cancellation with their messages, and a new worker
 * after either.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { cellOfPoscar, typeNumbers, type Cell } from '../../../../src/core/crystallography/cell';
import { supercell } from '../../../../src/core/crystallography/operations';
import { primitiveReduction } from '../../../../src/core/crystallography/primitive';
import { analyzeSymmetry, type MoyoBindings } from '../../../../src/core/crystallography/symmetry';
import { parsePoscar } from '../../../../src/core/poscar';
import type { Mat3 } from '../../../../src/core/poscar/types';
import { loadMoyoNode } from '../../../../src/platform/moyoNode';
import { SymmetryPool } from '../../../../src/platform/symmetryPool';
import { MATERIALS } from '../../../../src/server/materials';
import { spglibOracle, type OracleAnswer } from '../../../support/spglibOracle';

const FIXTURES = path.join(__dirname, '../../../../../test/fixtures/poscar');
const SYMPREC = 1e-3;

let moyoPromise: Promise<MoyoBindings> | undefined;
const moyo = (): Promise<MoyoBindings> => (moyoPromise ??= loadMoyoNode());

const diag = (n: number): Mat3 => [
  [n, 0, 0],
  [0, n, 0],
  [0, 0, n],
];
const ROTATED: Mat3 = [
  [1, 1, 0],
  [-1, 1, 0],
  [0, 0, 2],
];

function unitCells(): { name: string; cell: Cell }[] {
  const materials = MATERIALS.flatMap((m) => (m.structure ? [{ name: `${m.jid} ${m.formula}`, cell: m.structure as Cell }] : []));
  const fixtures = ['MgSi_vasp6.POSCAR', 'FePO4_vasp4_labels.POSCAR', 'Fe3O4_potcar_names.POSCAR'].flatMap((file) => {
    const { poscar } = parsePoscar(readFileSync(path.join(FIXTURES, file), 'utf8'));
    return poscar ? [{ name: file, cell: cellOfPoscar(poscar) }] : [];
  });
  assert.ok(readdirSync(FIXTURES).length > 0 && fixtures.length === 3, 'the fixtures are readable');
  return [...materials, ...fixtures];
}

/** Each real structure with its supercells: 2×2×2, 3×3×3, the rotated one, and 5×5×5 up to 8 atoms a cell. */
function cases(): { name: string; unit: Cell; det: number; diagonal: boolean; cell: Cell }[] {
  return unitCells().flatMap(({ name, cell }) => {
    const matrices: [string, Mat3, number][] = [
      ['2×2×2', diag(2), 8],
      ['3×3×3', diag(3), 27],
      ['rotated', ROTATED, 4],
      ...(cell.frac.length <= 8 ? [['5×5×5', diag(5), 125] as [string, Mat3, number]] : []),
    ];
    return matrices.map(([label, m, det]) => ({
      name: `${name} ${label}`,
      unit: cell,
      det,
      diagonal: m !== ROTATED,
      cell: supercell(cell, m),
    }));
  });
}

/** moyo's own answer for the whole cell, the fields the reduction maps back. */
function moyoAlone(bindings: MoyoBindings, cell: Cell): { sites: string; wyckoffs: string } {
  const json = JSON.stringify({ lattice: { basis: cell.lattice.flat() }, positions: cell.frac, numbers: typeNumbers(cell.species) });
  const raw = bindings.analyze_cell(json, SYMPREC, 'Spglib') as Record<string, unknown[]>;
  return { sites: JSON.stringify([raw.site_symmetry_symbols, raw.orbits, raw.operations!.length]), wyckoffs: raw.wyckoffs!.join('') };
}

test('supercells of real structures: the same group as the unit cell and as spglib, the operations times the cells repeated', async (t) => {
  const bindings = await moyo();
  const all = cases();
  const answers = spglibOracle(
    all.map((c) => ({ name: c.name, lattice: c.cell.lattice, frac: c.cell.frac, numbers: typeNumbers(c.cell.species) })),
    [SYMPREC],
  );
  if (!answers)
    t.diagnostic('SKIPPED LOUDLY (the spglib half): spglib is not installed for /usr/bin/python3 (apt-get install python3-spglib)');
  const problems: string[] = [];
  let letterChoices = 0;
  all.forEach((c, i) => {
    const unit = analyzeSymmetry(bindings, c.unit, SYMPREC);
    const start = performance.now();
    const big = analyzeSymmetry(bindings, c.cell, SYMPREC);
    const ms = performance.now() - start;
    const theirs = answers?.results[i]?.answers[String(SYMPREC)] as OracleAnswer | undefined;
    if (answers && theirs?.number !== big.number) problems.push(`${c.name}: ${big.number} vs spglib ${theirs?.number}`);
    if (big.number !== unit.number) problems.push(`${c.name}: ${big.number} vs the unit cell's ${unit.number}`);
    if (c.diagonal && big.operations.length !== unit.operations.length * c.det) {
      problems.push(`${c.name}: ${big.operations.length} operations, not ${unit.operations.length} × ${c.det}`);
    }
    const reduced = primitiveReduction(c.cell, SYMPREC);
    if (reduced?.cell.frac.length !== big.primitive.frac.length) {
      problems.push(`${c.name}: reduced to ${reduced?.cell.frac.length} sites, moyo's primitive cell has ${big.primitive.frac.length}`);
    }
    const alone = c.cell.frac.length <= 250 ? moyoAlone(bindings, c.cell) : undefined;
    if (alone && JSON.stringify([big.siteSymmetries, big.orbits, big.operations.length]) !== alone.sites) {
      problems.push(`${c.name}: sites or operations differ from moyo's on the whole cell`);
    }
    // Letters of another origin (same orbits and site symmetries, checked above) are counted, as in symmetry.test.ts.
    const letters = big.wyckoffs.join('');
    if (alone && letters !== alone.wyckoffs && letters !== theirs?.wyckoffs.join('')) letterChoices++;
    t.diagnostic(`${c.name}: ${c.cell.frac.length} atoms, ${big.symbol} (${big.number}), ${ms.toFixed(1)} ms`);
  });
  t.diagnostic(`${all.length} supercells, ${letterChoices} with another origin's Wyckoff letters than moyo's and spglib's`);
  assert.ok(all.length >= 40, `${all.length} supercells`);
  assert.deepEqual(problems, []);
});

test('a structure with no pure translations is searched as it is; a supercell is not reduced past its tolerance', () => {
  const cell: Cell = {
    lattice: diag(4),
    frac: [
      [0, 0, 0],
      [0.5, 0.5, 0.5],
    ],
    species: ['Cs', 'Cl'],
  };
  assert.equal(primitiveReduction(cell, SYMPREC), undefined);
  const big = supercell(cell, diag(2));
  assert.equal(primitiveReduction(big, SYMPREC)?.cell.frac.length, 2);
  assert.equal(primitiveReduction(big, SYMPREC)?.translations.length, 8);
  // One Cl moved by 0.01 Å: a translation at symprec 0.1 Å, none at 1e-3 Å.
  const shaken = { ...big, frac: big.frac.map((f, i) => (i === big.frac.length - 1 ? ([f[0] + 0.01 / 8, f[1], f[2]] as typeof f) : f)) };
  assert.equal(primitiveReduction(shaken, 1e-3), undefined);
  assert.equal(primitiveReduction(shaken, 0.1)?.cell.frac.length, 2);
});

test('the worker: the same answer off the thread, a timeout and a cancellation that say so, then a fresh worker', async () => {
  const script = path.join(__dirname, '../../../../src/platform/symmetryWorker.js');
  const cell = supercell(MATERIALS.find((m) => m.jid === 'JVASP-1002')!.structure as Cell, diag(4));
  const pool = new SymmetryPool(script);
  try {
    const found = await pool.search(cell, SYMPREC);
    assert.equal(found.number, 227);
    assert.deepEqual(found.wyckoffs, analyzeSymmetry(await moyo(), cell, SYMPREC).wyckoffs);
    const cancel = new AbortController();
    const cancelled = pool.search(cell, SYMPREC, cancel.signal);
    cancel.abort();
    await assert.rejects(cancelled, /The symmetry search was cancelled \(the structure changed\)\./);
    assert.equal((await pool.search(cell, SYMPREC)).number, 227);
  } finally {
    await pool.close();
  }
  const hasty = new SymmetryPool(script, 1);
  try {
    await assert.rejects(hasty.search(cell, SYMPREC), /The symmetry search took over 0.001 s on 512 atoms and was stopped\./);
  } finally {
    await hasty.close();
  }
});
