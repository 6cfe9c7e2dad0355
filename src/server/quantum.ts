/**
 * The reference server's variational quantum eigensolver: the s-orbital tight-binding Hamiltonian of
 * a material at one k-point (the model of the band-structure endpoint, in its real form
 * [[A, −B], [B, A]], padded to a power of two), a hardware-efficient ansatz of RY rotations and a CNOT
 * ladder simulated as a real state vector, optimised by Rotosolve (each angle set to the exact minimum
 * of its sinusoid, sweep after sweep). And the exact ground state of a small Pauli Hamiltonian (quantum/vqe's
 * `hamiltonian` bodies) by Jacobi diagonalization. Pure, deterministic, no I/O.
 */
import type { Mat3, Vec3 } from '../core/poscar/types';
import { blochHamiltonian as tightBinding } from './physics/tightbinding';

export const MAX_VQE_QUBITS = 5;
export const HAMILTONIAN_TYPES = ['tight_binding'] as const;

/** H(k) of the band-structure model as the real symmetric matrix of twice its size (same eigenvalues, each twice). */
export function blochHamiltonian(lattice: Mat3, symbols: string[], positions: Vec3[], kFrac: Vec3): number[][] {
  return tightBinding({ lattice, symbols, positions })(kFrac);
}

/** Pads a symmetric matrix to 2^q with a diagonal above its spectrum, so the ground state is unchanged. */
export function padToQubits(m: number[][]): { matrix: number[][]; qubits: number } {
  const qubits = Math.max(1, Math.ceil(Math.log2(m.length)));
  const size = 2 ** qubits;
  const bound =
    m.reduce(
      (s, row) =>
        Math.max(
          s,
          row.reduce((a, v) => a + Math.abs(v), 0),
        ),
      0,
    ) + 1;
  const matrix = Array.from({ length: size }, (_, i) =>
    Array.from({ length: size }, (_, j) => (i < m.length && j < m.length ? m[i]![j]! : i === j ? bound : 0)),
  );
  return { matrix, qubits };
}

/** Pauli strings with a non-zero coefficient in H = Σ c_P P (a real symmetric H has only an even number of Y in each). */
export function pauliTermCount(m: number[][], qubits: number): number {
  let count = 0;
  const size = 2 ** qubits;
  for (let code = 0; code < 4 ** qubits; code++) {
    let trace = 0;
    for (let col = 0; col < size; col++) {
      let row = col;
      let sign = 1;
      let imaginary = 0;
      for (let q = 0; q < qubits; q++) {
        const op = Math.floor(code / 4 ** q) % 4; // 0 I, 1 X, 2 Y, 3 Z
        const bit = (col >> q) & 1;
        if (op === 1 || op === 2) row ^= 1 << q;
        if (op === 3 && bit) sign = -sign;
        if (op === 2) {
          imaginary++;
          if (bit) sign = -sign;
        }
      }
      // An odd number of Y makes the coefficient imaginary: zero for a real symmetric H.
      if (imaginary % 2 === 0) trace += sign * (imaginary % 4 === 2 ? -1 : 1) * m[row]![col]!;
    }
    if (Math.abs(trace / size) > 1e-10) count++;
  }
  return count;
}

/** The ansatz state: |0…0⟩, then per layer RY on every qubit and a CNOT ladder; one final RY layer. */
function ansatzState(qubits: number, reps: number, angles: number[]): Float64Array {
  const size = 2 ** qubits;
  let psi = new Float64Array(size);
  psi[0] = 1;
  let a = 0;
  const ry = (q: number, theta: number): void => {
    const c = Math.cos(theta / 2);
    const s = Math.sin(theta / 2);
    for (let i = 0; i < size; i++) {
      if ((i >> q) & 1) continue;
      const j = i | (1 << q);
      const [x, y] = [psi[i]!, psi[j]!];
      psi[i] = c * x - s * y;
      psi[j] = s * x + c * y;
    }
  };
  const cnot = (control: number, target: number): void => {
    const next = new Float64Array(size);
    for (let i = 0; i < size; i++) next[(i >> control) & 1 ? i ^ (1 << target) : i] = psi[i]!;
    psi = next;
  };
  for (let layer = 0; layer <= reps; layer++) {
    for (let q = 0; q < qubits; q++) ry(q, angles[a++]!);
    if (layer < reps) for (let q = 0; q + 1 < qubits; q++) cnot(q, q + 1);
  }
  return psi;
}

function expectation(m: number[][], psi: Float64Array): number {
  let e = 0;
  for (let i = 0; i < psi.length; i++) {
    if (!psi[i]) continue;
    let row = 0;
    for (let j = 0; j < psi.length; j++) row += m[i]![j]! * psi[j]!;
    e += psi[i]! * row;
  }
  return e;
}

export interface VqeResult {
  energy: number;
  history: number[];
  parameters: number;
  iterations: number;
  converged: boolean;
  depth: number;
  cnots: number;
}

/** Rotosolve from a fixed start (all angles 0.1): deterministic for a given matrix. */
export function runVqe(m: number[][], qubits: number, reps: number, maxSweeps = 200): VqeResult {
  const parameters = qubits * (reps + 1);
  const angles = new Array<number>(parameters).fill(0.1);
  const energy = (): number => expectation(m, ansatzState(qubits, reps, angles));
  const history = [energy()];
  let converged = false;
  let sweeps = 0;
  while (sweeps < maxSweeps && !converged) {
    sweeps++;
    for (let p = 0; p < parameters; p++) {
      const theta = angles[p]!;
      const e0 = energy();
      angles[p] = theta + Math.PI / 2;
      const plus = energy();
      angles[p] = theta - Math.PI / 2;
      const minus = energy();
      angles[p] = theta - Math.PI / 2 - Math.atan2(2 * e0 - plus - minus, plus - minus);
    }
    history.push(energy());
    converged = Math.abs(history.at(-2)! - history.at(-1)!) < 1e-8;
  }
  const cnots = reps * (qubits - 1);
  return { energy: history.at(-1)!, history, parameters, iterations: sweeps, converged, depth: reps + 1 + cnots, cnots };
}

/** Lowest eigenvalue of Σ c_i P_i over n ≤ 4 qubits, by Jacobi diagonalization of the real form of H. */
export function groundStateEnergy(terms: Array<{ pauli: string; coefficient: number }>): { energy: number; n_qubits: number } {
  const n = terms[0]!.pauli.length;
  const dim = 2 ** n;
  const re = Array.from({ length: dim }, () => new Array<number>(dim).fill(0));
  const im = Array.from({ length: dim }, () => new Array<number>(dim).fill(0));
  for (const { pauli, coefficient } of terms) {
    for (let col = 0; col < dim; col++) {
      let row = col;
      let pr = 1;
      let pi = 0; // phase, as a complex number
      for (let q = 0; q < n; q++) {
        const bit = (col >> (n - 1 - q)) & 1;
        const op = pauli[q]!;
        if (op === 'X' || op === 'Y') row ^= 1 << (n - 1 - q);
        let fr = 1;
        let fi = 0;
        if (op === 'Z' && bit) fr = -1;
        if (op === 'Y') [fr, fi] = bit ? [0, -1] : [0, 1];
        [pr, pi] = [pr * fr - pi * fi, pr * fi + pi * fr];
      }
      re[row]![col]! += coefficient * pr;
      im[row]![col]! += coefficient * pi;
    }
  }
  // [[Re, -Im], [Im, Re]] is real symmetric with each eigenvalue of H twice.
  const size = 2 * dim;
  const a = Array.from({ length: size }, (_, i) =>
    Array.from({ length: size }, (_, j) => {
      const r = i % dim;
      const c = j % dim;
      if (i < dim === j < dim) return re[r]![c]!;
      return i < dim ? -im[r]![c]! : im[r]![c]!;
    }),
  );
  for (let sweep = 0; sweep < 100; sweep++) {
    let off = 0;
    for (let p = 0; p < size; p++) for (let q = p + 1; q < size; q++) off += a[p]![q]! ** 2;
    if (off < 1e-22) break;
    for (let p = 0; p < size; p++) {
      for (let q = p + 1; q < size; q++) {
        const apq = a[p]![q]!;
        if (Math.abs(apq) < 1e-300) continue;
        const theta = (a[q]![q]! - a[p]![p]!) / (2 * apq);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        for (let k = 0; k < size; k++) {
          const akp = a[k]![p]!;
          const akq = a[k]![q]!;
          a[k]![p] = c * akp - s * akq;
          a[k]![q] = s * akp + c * akq;
        }
        for (let k = 0; k < size; k++) {
          const apk = a[p]![k]!;
          const aqk = a[q]![k]!;
          a[p]![k] = c * apk - s * aqk;
          a[q]![k] = s * apk + c * aqk;
        }
      }
    }
  }
  const energy = Math.min(...a.map((row, i) => row[i]!));
  return { energy: Math.round(energy * 1e10) / 1e10, n_qubits: n };
}
