import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';

const cli = join(__dirname, '..', '..', '..', '..', 'src', 'cli.js');
const run = (args: string[]) => spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8' });
const lines = (stdout: string) =>
  stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));

const dir = mkdtempSync(join(tmpdir(), 'token-lens-symmetry-'));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};
// Rock salt in its conventional cell; and the same with one Cl moved by 0.02 Å (only a loose tolerance sees Fm-3m).
const ROCK_SALT = (dz: number) =>
  [
    'NaCl rock salt',
    '5.64',
    '1 0 0',
    '0 1 0',
    '0 0 1',
    'Na Cl',
    '4 4',
    'Direct',
    '0 0 0',
    '0 0.5 0.5',
    '0.5 0 0.5',
    '0.5 0.5 0',
    `0.5 0.5 ${0.5 + dz / 5.64}`,
    '0.5 0 0',
    '0 0.5 0',
    '0 0 0.5',
    '',
  ].join('\n');

test('symmetry prints one JSON line per file: number, symbol as spglib writes it, crystal system, Wyckoff letters', () => {
  const nacl = file('NaCl.POSCAR', ROCK_SALT(0));
  const shaken = file('NaCl-shaken.POSCAR', ROCK_SALT(0.02));
  const out = run(['symmetry', nacl, shaken]);
  assert.equal(out.status, 0, out.stderr);
  const [a, b] = lines(out.stdout);
  assert.deepEqual(a, {
    file: nacl,
    number: 225,
    symbol: 'Fm-3m',
    crystal_system: 'cubic',
    bravais: 'cF',
    wyckoffs: ['a', 'a', 'a', 'a', 'b', 'b', 'b', 'b'],
    symprec: 0.001,
  });
  assert.equal(b.file, shaken);
  assert.notEqual(b.number, 225);
  const loose = lines(run(['symmetry', '--symprec', '0.1', shaken]).stdout)[0];
  assert.equal(loose.number, 225);
  assert.equal(loose.symprec, 0.1);
});

test('symmetry: a file without an answer is a line with its error and exit code 1; a bad option is exit code 2', () => {
  const broken = file('broken.POSCAR', 'not a POSCAR\n');
  const out = run(['symmetry', broken, '/no/such/POSCAR']);
  assert.equal(out.status, 1);
  const [a, b] = lines(out.stdout);
  assert.equal(a.file, broken);
  assert.match(a.error, /Not a readable POSCAR/);
  assert.match(b.error, /Cannot read it: ENOENT/);
  for (const args of [
    ['symmetry'],
    ['symmetry', '--symprec', 'x', broken],
    ['symmetry', '--symprec', '-1', broken],
    ['symmetry', '--frobnicate', broken],
  ]) {
    const bad = run(args);
    assert.equal(bad.status, 2, args.join(' '));
    assert.match(bad.stderr, /Usage: node dist\/cli.js symmetry/);
    assert.equal(bad.stdout, '');
  }
  const tooLoose = lines(run(['symmetry', '--symprec', '2', file('ok.POSCAR', ROCK_SALT(0))]).stdout)[0];
  assert.match(tooLoose.error, /between 0.000001 and 0.5 Å/);
});
