/**
 * Harrison's universal sp3 tight binding (src/server/physics/harrison.ts), the band fallback for sp-bonded
 * materials outside Vogl's table: its matrix elements from the Solid State Table's η and ħ²/m, the Γ-point levels
 * of diamond in closed form, wide-gap compounds insulating, electron counts, the density of states, and which
 * model the band-structure answer picks.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Cell } from '../../../../src/server/physics/cell';
import { bandModel } from '../../../../src/server/physics/answers';
import { densityOfStates } from '../../../../src/server/physics/dos';
import {
  harrisonBands,
  harrisonCovers,
  harrisonElectrons,
  harrisonHamiltonian,
  harrisonIntegrals,
  HARRISON_METHOD,
  TERM_VALUES,
} from '../../../../src/server/physics/harrison';
import { kPath } from '../../../../src/server/physics/kpath';
import { runToEnd } from '../../../../src/core/util/steps';
import { SP3S_METHOD } from '../../../../src/server/physics/sp3s';
import { bandEdges, embeddedEigenvalues } from '../../../../src/server/physics/tightbinding';
import { fcc, zincblende } from '../../../support/physicsFixtures';
import { wurtzite } from '../../../support/physicsCrystals';

const near = (a: number, b: number, tolerance: number): boolean => Math.abs(a - b) <= tolerance;

function edges(cell: Cell, density = 30) {
  const path = kPath(cell.lattice, density);
  const eigenvalues = runToEnd(harrisonBands(cell, path.kpoints));
  return { ...bandEdges(eigenvalues, harrisonElectrons(cell.symbols)), eigenvalues, path };
}

test("matrix elements: V = η ħ²/(m d²) with ħ²/m = 7.62 eV·Å² and the table's η, e.g. silicon's d = 2.35 Å", () => {
  const v = harrisonIntegrals(2.35);
  // 7.62 / 2.35² = 1.3798 eV; times −1.40, 1.84, 3.24, −0.81.
  assert.ok(near(v.ss, -1.932, 5e-4) && near(v.spOut, 2.539, 5e-4) && near(v.spIn, v.spOut, 0));
  assert.ok(near(v.ppSigma, 4.471, 5e-4) && near(v.ppPi, -1.118, 5e-4), `${v.ppSigma} ${v.ppPi}`);
  // 1/d² scaling: twice the length, a quarter of every element.
  assert.ok(near(harrisonIntegrals(4.7).ppSigma * 4, v.ppSigma, 1e-12));
  assert.deepEqual(TERM_VALUES.Si, [-13.55, -6.52, 4]);
  assert.deepEqual(TERM_VALUES.N, [-23.04, -11.47, 5]);
});

test('silicon: the Γ levels are the closed-form sp3 ones, a semiconductor with a 3.66 eV direct gap at Γ (sp3 without s* cannot give the indirect 1.17 eV)', () => {
  const cell = zincblende('Si', 'Si', 5.431);
  const d = (5.431 * Math.sqrt(3)) / 4;
  const v = harrisonIntegrals(d);
  const [es, ep] = TERM_VALUES.Si!;
  // At Γ the s and p Bloch sums decouple: ε_s ± 4|V_ssσ| and ε_p ± (4/3)(V_ppσ + 2V_ppπ), each p level three times.
  const expected = [
    es + 4 * v.ss,
    es - 4 * v.ss,
    ...[-1, 1].flatMap((sign) => new Array(3).fill(ep + (sign * 4 * (v.ppSigma + 2 * v.ppPi)) / 3)),
  ];
  const gamma = embeddedEigenvalues(harrisonHamiltonian(cell)([0, 0, 0]));
  expected.sort((a, b) => a - b).forEach((e, i) => assert.ok(near(gamma[i]!, e, 1e-9), `Γ level ${i}: ${gamma[i]} vs ${e}`));
  const e = edges(cell);
  assert.equal(e.isMetal, false);
  assert.equal(e.nelectrons, 8);
  assert.ok(near(e.vbm!, gamma[3]!, 1e-9) && near(e.cbm!, es - 4 * v.ss, 1e-9), 'valence top Γ25′, conduction bottom Γ2′');
  assert.ok(near(e.bandGap, 3.662, 1e-3) && e.directGap, `Si gap ${e.bandGap}`);
});

test("wide-gap compounds outside Vogl's table come out insulating: wurtzite AlN, zincblende BN, rock-salt MgO, wurtzite ZnO", () => {
  // Harrison's sp3 model overestimates the gaps of the first-row compounds (measured: AlN 6.2, c-BN 6.4, MgO 7.8, ZnO 3.4 eV).
  const cases: [string, Cell, number, number][] = [
    ['AlN', wurtzite('Al', 'N', 3.112, 4.982, 0.382), 9.301, 16],
    ['BN', zincblende('B', 'N', 3.615), 14.276, 8],
    [
      'MgO',
      {
        lattice: zincblende('Mg', 'O', 4.212).lattice,
        symbols: ['Mg', 'O'],
        positions: [
          [0, 0, 0],
          [2.106, 0, 0],
        ],
      },
      8.264,
      8,
    ],
    ['ZnO', wurtzite('Zn', 'O', 3.25, 5.207, 0.382), 11.022, 16],
  ];
  for (const [name, cell, gap, electrons] of cases) {
    const e = edges(cell);
    assert.equal(e.isMetal, false, name);
    assert.equal(e.nelectrons, electrons, name);
    assert.ok(e.bandGap > 5 && near(e.bandGap, gap, 2e-3), `${name}: gap ${e.bandGap.toFixed(3)} eV`);
  }
});

test('zincblende BN: the gap is the bonding–antibonding p splitting at Γ, in closed form for two unlike atoms', () => {
  const a = 3.615;
  const v = harrisonIntegrals((a * Math.sqrt(3)) / 4);
  const [pB, pN] = [TERM_VALUES.B![1], TERM_VALUES.N![1]];
  // At Γ the p Bloch sums of B and N couple by (4/3)(V_ppσ + 2V_ppπ): levels (ε_B + ε_N)/2 ± √(((ε_B − ε_N)/2)² + V²).
  const coupling = (4 / 3) * (v.ppSigma + 2 * v.ppPi);
  const half = Math.hypot((pB - pN) / 2, coupling);
  const e = edges(zincblende('B', 'N', a));
  assert.ok(near(e.vbm!, (pB + pN) / 2 - half, 1e-9) && near(e.cbm!, (pB + pN) / 2 + half, 1e-9), `${e.vbm} ${e.cbm}`);
  assert.ok(near(e.bandGap, 2 * half, 1e-9) && e.directGap);
});

test('electrons from the valence s and p shells; the table covers sp elements only', () => {
  assert.equal(harrisonElectrons(['Al', 'N']), 8);
  assert.equal(harrisonElectrons(['Zn', 'O']), 8);
  assert.equal(harrisonElectrons(['Mg', 'O', 'Mg', 'O']), 16);
  assert.equal(harrisonElectrons(['B', 'N']), 8);
  assert.ok(harrisonCovers(['Al', 'N']) && harrisonCovers(['Zn', 'O']) && harrisonCovers(['Si']));
  assert.ok(!harrisonCovers(['Na', 'Cl']) && !harrisonCovers(['Cu']) && !harrisonCovers(['Fe', 'O']) && !harrisonCovers([]));
  assert.throws(() => harrisonHamiltonian({ ...zincblende('Na', 'Cl', 5.64) }), /no s and p term values for Na/);
});

test('density of states: eight states per atom in all, the valence electrons below the gap (AlN)', () => {
  const cell = wurtzite('Al', 'N', 3.112, 4.982, 0.382);
  const dos = runToEnd(densityOfStates(harrisonHamiltonian(cell), 4));
  const step = dos.energies[1]! - dos.energies[0]!;
  const integral = (below: number) => dos.states.reduce((sum, s, i) => sum + (dos.energies[i]! < below ? s * step : 0), 0);
  assert.ok(near(integral(Infinity), 32, 0.05), `total ${integral(Infinity)}`);
  const e = edges(cell, 10);
  assert.ok(near(integral((e.vbm! + e.cbm!) / 2), 16, 0.1));
});

test('any cell: one-atom fcc Al (bonded to its own images) has the Γ levels of the four-atom cubic cell, and is a metal', () => {
  const a = 4.05;
  const primitive: Cell = { lattice: zincblende('Al', 'Al', a).lattice, symbols: ['Al'], positions: [[0, 0, 0]] };
  const cubic = fcc(1, a, 'Al');
  const small = embeddedEigenvalues(harrisonHamiltonian(primitive)([0, 0, 0]));
  const big = embeddedEigenvalues(harrisonHamiltonian(cubic)([0, 0, 0]));
  small.forEach((e) =>
    assert.ok(
      big.some((x) => near(x, e, 1e-9)),
      `Γ level ${e} folded into the cubic cell`,
    ),
  );
  assert.equal(edges(primitive).isMetal, true);
});

test('the band model: sp3s* for Si and GaAs, Harrison for AlN, ZnO, MgO and SiO2, the s-orbital fallback for NaCl and Cu', () => {
  const cell = (symbols: string[]): Cell => ({ ...fcc(1, 5, 'X'), symbols });
  assert.equal(bandModel(cell(['Si', 'Si', 'Si', 'Si'])).method, `${SP3S_METHOD}, along the Setyawan-Curtarolo k-path.`);
  assert.equal(bandModel(cell(['Ga', 'As', 'Ga', 'As'])).orbitals, 5);
  for (const symbols of [
    ['Al', 'N', 'Al', 'N'],
    ['Zn', 'O', 'Zn', 'O'],
    ['Mg', 'O', 'Mg', 'O'],
    ['Si', 'O', 'O', 'Si'],
  ]) {
    const model = bandModel(cell(symbols));
    assert.equal(model.orbitals, 4, symbols.join(''));
    assert.equal(model.method, `${HARRISON_METHOD}, along the Setyawan-Curtarolo k-path.`);
  }
  assert.match(HARRISON_METHOD, /^Rough estimate: Harrison's universal tight-binding parameters/);
  assert.equal(bandModel(cell(['Na', 'Cl', 'Na', 'Cl'])).orbitals, 1);
  assert.equal(bandModel(cell(['Cu', 'Cu', 'Cu', 'Cu'])).orbitals, 1);
});
