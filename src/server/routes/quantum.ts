/** quantum/vqe: a material's tight-binding H(k) on a simulated circuit, or a Pauli Hamiltonian solved exactly. */
import { EigenvalueDecomposition, Matrix } from 'ml-matrix';
import type { Mat3, Vec3 } from '../../core/poscar/types';
import { rowTimes } from '../../core/poscar/vec';
import { blochHamiltonian, groundStateEnergy, HAMILTONIAN_TYPES, MAX_VQE_QUBITS, pauliTermCount, padToQubits, runVqe } from '../quantum';
import { HttpError, material, num, round, str, type Handler, type Json } from '../http/body';

/** Fractional reciprocal coordinates beyond this are a mistake: H(k) is periodic with period 1. */
const MAX_KPOINT = 100;

function groundStateOf(m: number[][]): number {
  return Math.min(...new EigenvalueDecomposition(new Matrix(m), { assumeSymmetric: true }).realEigenvalues);
}

const vqeMaterial = (body: Json): unknown => {
  const m = material(body, 'jid');
  if (!m.structure) throw new HttpError(501, `The reference server has no structure for ${m.formula} (${m.jid}).`);
  const type = str(body, 'hamiltonian_type', false) ?? 'tight_binding';
  if (!(HAMILTONIAN_TYPES as readonly string[]).includes(type))
    throw new HttpError(400, `Field "hamiltonian_type" must be one of ${HAMILTONIAN_TYPES.join(', ')}.`);
  const k = body.kpoint ?? [0, 0, 0];
  if (!Array.isArray(k) || k.length !== 3 || !k.every((x) => typeof x === 'number' && Math.abs(x) <= MAX_KPOINT))
    throw new HttpError(
      400,
      `Field "kpoint" must be three numbers from -${MAX_KPOINT} to ${MAX_KPOINT} (fractional coordinates of the reciprocal lattice), e.g. [0, 0, 0].`,
    );
  const reps = num(body, 'reps', true) ?? 2;
  if (reps < 1 || reps > 6) throw new HttpError(400, 'Field "reps" must be between 1 and 6.');
  const lattice = m.structure.lattice as Mat3;
  const positions = m.structure.frac.map((f) => rowTimes(f, lattice));
  const real = blochHamiltonian(lattice, m.structure.species, positions, k as Vec3);
  const { matrix, qubits } = padToQubits(real);
  if (qubits > MAX_VQE_QUBITS)
    throw new HttpError(400, `${m.formula} needs ${qubits} qubits; the reference server simulates at most ${MAX_VQE_QUBITS}.`);
  const exact = groundStateOf(real);
  const result = runVqe(matrix, qubits, reps);
  return {
    jid: m.jid,
    formula: m.formula,
    kpoint: k,
    hamiltonian_type: type,
    vqe_energy: round(result.energy, 8),
    classical_energy: round(exact, 8),
    energy_difference: round(result.energy - exact, 8),
    energy_unit: 'eV',
    converged: result.converged,
    iterations: result.iterations,
    energy_history: result.history.map((e) => round(e, 8)),
    circuit: {
      n_qubits: qubits,
      ansatz: 'RY layers with a CNOT ladder',
      reps,
      n_parameters: result.parameters,
      depth: result.depth,
      n_cnot: result.cnots,
      n_pauli_terms: pauliTermCount(matrix, qubits),
    },
    optimizer: 'Rotosolve',
    method:
      'state-vector simulation of the s-orbital tight-binding H(k) of the band-structure endpoint; classical energy by exact diagonalization',
  };
};

export const vqe: Handler = (body) => {
  if (body.hamiltonian === undefined && body.jid !== undefined) return vqeMaterial(body);
  const terms = body.hamiltonian;
  if (!Array.isArray(terms) || terms.length === 0)
    throw new HttpError(
      400,
      'Send "jid" (a material, with optional "kpoint" and "hamiltonian_type") or "hamiltonian": an array of {"pauli": "XZ", "coefficient": 0.5} terms.',
    );
  let n = -1;
  const checked = terms.map((term, i) => {
    const t = term as { pauli?: unknown; coefficient?: unknown };
    if (typeof t?.pauli !== 'string' || !/^[IXYZ]{1,4}$/.test(t.pauli))
      throw new HttpError(400, `hamiltonian[${i}].pauli must be a string of I, X, Y, Z of length 1 to 4.`);
    if (typeof t.coefficient !== 'number' || !Number.isFinite(t.coefficient))
      throw new HttpError(400, `hamiltonian[${i}].coefficient must be a number.`);
    if (n >= 0 && t.pauli.length !== n) throw new HttpError(400, 'Every Pauli string in "hamiltonian" must have the same length.');
    n = t.pauli.length;
    return { pauli: t.pauli, coefficient: t.coefficient };
  });
  const ansatz = str(body, 'ansatz', false) ?? 'exact';
  const { energy, n_qubits } = groundStateEnergy(checked);
  return {
    energy,
    n_qubits,
    ansatz,
    method: 'exact diagonalization (the reference server does not run a variational circuit)',
    converged: true,
  };
};
