/**
 * writeExtxyz: extended XYZ as ASE's extxyz reader (ase/io/extxyz.py) reads it back: Lattice= (the
 * three vectors in a row), Properties=species:S:1:pos:R:3[:forces:R:3][:move_mask:L:1|3], energy= in eV, stress= in eV/Å³
 * with ASE's sign (StructureFrame.stress is kBar with VASP's sign: see frameSpec.ts), pbc=. Numbers are
 * written in JavaScript's shortest round-trip form, so reading the text back gives the same doubles. Fixed atoms
 * (StructureFrame.free, POSCAR's selective dynamics) as ASE writes its constraints: move_mask:L:1 when every atom
 * is free or fixed along all three axes (FixAtoms), else move_mask:L:3 (FixCartesian); T = free.
 */
import type { Mat3, Vec3 } from '../../poscar/types';
import type { StructureFrame } from '../types';
import { KBAR_PER_EV_A3 } from './frameSpec';

const num = (x: number): string => String(x);
const row = (v: readonly number[]): string => v.map(num).join(' ');
const flag = (b: boolean): string => (b ? 'T' : 'F');

/** A value quoted for the comment line: backslash and quote escaped, line breaks made spaces. */
const quoted = (text: string): string => `"${text.replace(/[\r\n]+/g, ' ').replace(/[\\"]/g, (c) => `\\${c}`)}"`;

/** The move_mask columns of a frame's atoms: 0 (none), 1 (whole atoms fixed) or 3 (axes fixed). */
function maskWidth(frame: StructureFrame): 0 | 1 | 3 {
  const free = frame.free;
  if (!free || free.length !== frame.positions.length) return 0;
  return free.every((f) => f[0] === f[1] && f[1] === f[2]) ? 1 : 3;
}

function commentLine(frame: StructureFrame, withForces: boolean, mask: 0 | 1 | 3): string {
  const parts: string[] = [];
  if (frame.lattice) parts.push(`Lattice=${quoted(frame.lattice.map(row).join(' '))}`);
  parts.push(`Properties=species:S:1:pos:R:3${withForces ? ':forces:R:3' : ''}${mask ? `:move_mask:L:${mask}` : ''}`);
  if (frame.energy !== undefined && Number.isFinite(frame.energy)) parts.push(`energy=${num(frame.energy)}`);
  if (frame.stress) {
    const s: Mat3 = frame.stress;
    // Fortran order (column after column), as ASE writes and reads its 3×3 keys; kBar (VASP's sign) -> eV/Å³ (ASE's).
    const values = [0, 1, 2].flatMap((j) => [0, 1, 2].map((i) => -s[i]![j]! / KBAR_PER_EV_A3));
    parts.push(`stress=${quoted(row(values))}`);
  }
  const pbc = frame.lattice ? frame.pbc : [false, false, false];
  parts.push(`pbc=${quoted(pbc.map(flag).join(' '))}`);
  if (frame.title) parts.push(`title=${quoted(frame.title)}`);
  return parts.join(' ');
}

function atomLine(symbol: string, position: Vec3, force: Vec3 | undefined, free: readonly boolean[]): string {
  const flags = free.length ? ` ${free.map(flag).join(' ')}` : '';
  return `${symbol} ${row(position)}${force ? ` ${row(force)}` : ''}${flags}`;
}

/** One frame or many as extended XYZ text (a trailing newline after the last atom line). */
export function writeExtxyz(frames: StructureFrame | StructureFrame[]): string {
  const list = Array.isArray(frames) ? frames : [frames];
  const out: string[] = [];
  for (const frame of list) {
    const n = frame.positions.length;
    const withForces = frame.forces !== undefined && frame.forces.length === n;
    const mask = maskWidth(frame);
    out.push(String(n), commentLine(frame, withForces, mask));
    for (let i = 0; i < n; i++) {
      const symbol = /^[A-Za-z]+$/.test(frame.species[i] ?? '') ? frame.species[i]! : 'X';
      const free = mask ? frame.free![i]!.slice(0, mask) : [];
      out.push(atomLine(symbol, frame.positions[i]!, withForces ? frame.forces![i] : undefined, free));
    }
  }
  return out.length > 0 ? `${out.join('\n')}\n` : '';
}
