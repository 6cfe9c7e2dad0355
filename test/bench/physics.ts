/**
 * The built-in service's models from the literature next to the reference models they replace, timed in the
 * same run: relax of 64-atom Si started 3 % too large with the cell (Stillinger–Weber + UnitCellFilter) and in the
 * fixed cell as before, 1,000 NVT MD steps of 256 Cu atoms (the thermostat vs NVE, both on the Zhou-Johnson-Wadley EAM),
 * and the band structure of 64-atom Si (sp3s*, 640 orbitals, vs one s orbital).
 */
import { relaxCell } from '../../src/server/physics/cellRelax';
import { kPath } from '../../src/server/physics/kpath';
import { md } from '../../src/server/physics/md';
import { relax } from '../../src/server/physics/relax';
import { runToEnd } from '../../src/server/physics/schedule';
import { sp3sBands, sp3sElectrons } from '../../src/server/physics/sp3s';
import { bandEdges, bands } from '../../src/server/physics/tightbinding';
import { diamond, fccCopper, rattle } from '../unit/physicsFixtures';

export interface PhysicsRow {
  name: string;
  ms: number;
  detail: string;
}

function timed(name: string, run: () => string): PhysicsRow {
  const started = performance.now();
  const detail = run();
  return { name, ms: performance.now() - started, detail };
}

export function benchPhysics(): PhysicsRow[] {
  const si = rattle(diamond(2, 5.431 * 1.03), 0.05, 2);
  const cu = fccCopper(4);
  const path = kPath(diamond(2).lattice, 1).kpoints.slice(0, 6);
  return [
    timed('relax Si64 with the cell (SW, UnitCellFilter)', () => {
      const r = runToEnd(relaxCell(si, { fmax: 0.05, maxSteps: 1000 }));
      return `${r.converged ? 'converged' : 'not converged'} in ${r.steps} steps, a = ${(r.lattice[0][0] / 2).toFixed(4)} Å, ${(r.energies.at(-1)! / 64).toFixed(4)} eV/atom`;
    }),
    timed('relax Si64 in the fixed cell (as before)', () => {
      const r = runToEnd(relax(si, { fmax: 0.05, maxSteps: 1000 }));
      return `${r.converged ? 'converged' : 'not converged'} in ${r.steps} steps, a stays ${(si.lattice[0][0] / 2).toFixed(4)} Å, ${(r.energies.at(-1)! / 64).toFixed(4)} eV/atom`;
    }),
    timed('MD Cu256 EAM, 1,000 steps NVT (Langevin)', () => {
      const r = runToEnd(md(cu, { temperature: 300, timestep: 2, steps: 1000, seed: 1, ensemble: 'nvt' }));
      const half = r.temperatures.slice(500);
      return `second-half mean ${(half.reduce((a, b) => a + b, 0) / half.length).toFixed(1)} K (target 300 K)`;
    }),
    timed('MD Cu256 EAM, 1,000 steps NVE (as before)', () => {
      const r = runToEnd(md(cu, { temperature: 300, timestep: 2, steps: 1000, seed: 1, ensemble: 'nve' }));
      const half = r.temperatures.slice(500);
      return `second-half mean ${(half.reduce((a, b) => a + b, 0) / half.length).toFixed(1)} K (started at 300 K)`;
    }),
    timed(`bands Si64, ${path.length} k-points, sp3s* (640 orbitals)`, () => {
      const cell = diamond(2);
      const e = bandEdges(runToEnd(sp3sBands(cell, path)), sp3sElectrons(cell.symbols));
      return e.isMetal ? 'metal' : `gap ${e.bandGap.toFixed(3)} eV over these k-points (${e.directGap ? 'direct' : 'indirect'})`;
    }),
    timed(`bands Si64, ${path.length} k-points, old model (64 s orbitals)`, () => {
      const cell = diamond(2);
      const e = bandEdges(runToEnd(bands(cell, path)), 64);
      return e.isMetal ? "a metal (the old model's answer for silicon)" : `gap ${e.bandGap.toFixed(3)} eV`;
    }),
  ];
}
