/**
 * Readers of the applications that build or compute one thing: heterostructure, VQE, reaction
 * balancing, high-entropy alloys. Pure and tolerant: what they do not place stays under Other fields.
 */
import { isRecord, type Rec } from '../../../core/util/guards';
import { toNumber, type Fields } from '../fields';
import { fixed, short, signed } from '../format';
import type { AppRead } from './model';
import { cell, factTable, recordTable } from './tables';
import type { Translate } from '../../../core/util/locale';

const percent = (fraction: number): string => `${signed(fraction * 100, 3)} %`;
/** 1.6 mHa, the usual bar of chemical accuracy. */
const CHEMICAL_ACCURACY_EV = 0.0016 * 27.211386;

export function readHeterostructure(f: Fields, request: Rec, t: Translate): AppRead {
  const poscar = f.text('combined_poscar', 'poscar', 'interface_poscar', 'heterostructure');
  const u = f.number('mismatch_u');
  const v = f.number('mismatch_v');
  const angle = f.number('mismatch_angle');
  const overall = f.number('mismatch_percent', 'lattice_mismatch');
  const atoms = f.count('n_atoms', 'natoms');
  const area = f.number('interface_area', 'area');
  const entries: [string, string][] = [
    ...(u !== undefined ? [[t('Mismatch along u'), percent(u)] as [string, string]] : []),
    ...(v !== undefined ? [[t('Mismatch along v'), percent(v)] as [string, string]] : []),
    ...(angle !== undefined ? [[t('Angle mismatch'), `${signed(angle, 3)}°`] as [string, string]] : []),
    ...(overall !== undefined && u === undefined ? [[t('Lattice mismatch'), `${short(overall)} %`] as [string, string]] : []),
    ...(area !== undefined ? [[t('Interface area'), `${short(area)} Å²`] as [string, string]] : []),
  ];
  const supercell = f.nested('supercell');
  for (const [label, name] of [
    [t('Substrate supercell'), 'substrate'],
    [t('Film supercell'), 'film'],
  ] as const) {
    const size = supercell?.read([name], (x) =>
      Array.isArray(x) && x.length === 3 && x.every((n) => Number.isInteger(n)) ? (x as number[]).join(' × ') : undefined,
    );
    if (size) entries.push([label, size]);
  }
  const names = ['film', 'substrate'].map((role) => {
    const part = f.nested(role);
    part?.count('natoms');
    return part?.text('name', 'formula');
  });
  for (const name of ['film_index', 'subs_index', 'separation', 'vacuum']) {
    const value = f.read([name], (x) => cell(x)?.text);
    if (value !== undefined) entries.push([name.replace('_', ' '), name === 'separation' || name === 'vacuum' ? `${value} Å` : value]);
  }
  const worst = [u, v]
    .filter((x): x is number => x !== undefined)
    .reduce((a, b) => Math.max(a, Math.abs(b)), overall !== undefined ? Math.abs(overall) / 100 : 0);
  const named = (given: string | undefined, fields: string[], fallback: string): string => {
    const jid = fields.map((n) => request[n]).find((v): v is string => typeof v === 'string');
    return given && jid ? `${given} (${jid})` : (given ?? jid ?? fallback);
  };
  const film = named(names[0], ['jid1', 'film_jid'], t('film'));
  const subs = named(names[1], ['jid2', 'subs_jid', 'substrate_jid'], t('substrate'));
  const mismatch = fixed(worst * 100, 2);
  const headline = !poscar
    ? t('No structure in the answer')
    : atoms !== undefined
      ? t('Interface of {0} atoms, largest mismatch {1} %', atoms, mismatch)
      : t('Interface, largest mismatch {0} %', mismatch);
  return {
    headline,
    facts: [
      t('{0} on {1}', film, subs),
      ...(poscar ? [t('Largest in-plane mismatch {0} %: the film is strained onto the substrate', mismatch)] : []),
    ],
    ...(poscar
      ? { poscar: { text: poscar, note: t('Largest in-plane mismatch {0} %: the film is strained onto the substrate.', mismatch) } }
      : {}),
    tables: entries.length ? [factTable('mismatch', t('Lattice match'), entries)] : [],
    plots: [],
  };
}

/** "Converged after 40 iterations", "Not converged". */
function convergence(converged: boolean, iterations: number | undefined, t: Translate): string {
  if (iterations === undefined) return converged ? t('Converged') : t('Not converged');
  return converged ? t('Converged after {0} iterations', iterations) : t('Not converged after {0} iterations', iterations);
}

/** "Si (JVASP-1002) at k = (0, 0, 0), tight-binding Hamiltonian", as much of it as the answer says. */
function vqeInput(material: string, k: string | undefined, hamiltonian: string | undefined, t: Translate): string {
  if (k && hamiltonian) return t('{0} at k = ({1}), {2} Hamiltonian', material, k, hamiltonian);
  if (k) return t('{0} at k = ({1})', material, k);
  return hamiltonian ? t('{0}, {1} Hamiltonian', material, hamiltonian) : material;
}

export function readVqe(f: Fields, _request: Rec, t: Translate): AppRead {
  const vqe = f.number('vqe_energy', 'energy', 'ground_state_energy');
  const classical = f.number('classical_energy', 'exact_energy', 'reference_energy');
  const difference = f.number('energy_difference');
  const unit = f.text('energy_unit', 'unit') ?? 'eV';
  const history = f.series(['energy_history', 'history', 'convergence'], true);
  const converged = f.boolean('converged');
  const iterations = f.count('iterations', 'n_iterations');
  const circuit = f.nested('circuit');
  const entries: [string, string][] = [];
  if (circuit) {
    for (const [label, names] of [
      [t('Qubits'), ['n_qubits', 'qubits']],
      [t('Ansatz'), ['ansatz']],
      [t('Layers (reps)'), ['reps']],
      [t('Parameters'), ['n_parameters']],
      [t('Depth'), ['depth']],
      [t('CNOT gates'), ['n_cnot']],
      [t('Pauli terms'), ['n_pauli_terms']],
    ] as const) {
      const value = circuit.read([...names], (x) => cell(x)?.text);
      if (value !== undefined) entries.push([label, value]);
    }
  }
  const qubits = f.count('n_qubits');
  if (qubits !== undefined) entries.push([t('Qubits'), String(qubits)]);
  const optimizer = f.text('optimizer');
  if (optimizer) entries.push([t('Optimizer'), optimizer]);
  const delta = difference ?? (vqe !== undefined && classical !== undefined ? vqe - classical : undefined);
  const headline =
    vqe === undefined
      ? t('No energy in the answer')
      : classical === undefined
        ? t('VQE energy {0} {1}', fixed(vqe, 6), unit)
        : t('VQE {0} {1} · classical {2} {1}', fixed(vqe, 6), unit, fixed(classical, 6));
  const facts = [
    ...(delta !== undefined
      ? [
          unit === 'eV' && Math.abs(delta) < CHEMICAL_ACCURACY_EV
            ? t('VQE − classical = {0} {1} (within chemical accuracy, 1.6 mHa)', signed(delta, 6), unit)
            : t('VQE − classical = {0} {1}', signed(delta, 6), unit),
        ]
      : []),
    ...(converged !== undefined ? [convergence(converged, iterations, t)] : []),
  ];
  const jid = f.text('jid');
  const formula = f.text('formula');
  const k = f.read(['kpoint', 'k_point'], (x) => cell(x)?.text);
  const hamiltonian = f.text('hamiltonian_type')?.replace(/_/g, '-');
  if (jid || formula) facts.unshift(vqeInput([formula, jid && `(${jid})`].filter(Boolean).join(' '), k, hamiltonian, t));
  const plots =
    history && history.length > 1
      ? [
          {
            id: 'vqe',
            title: t('Energy per iteration'),
            xLabel: t('Iteration'),
            yLabel: t('E ({0})', unit),
            x: history.map((_, i) => i),
            xSteps: true,
            legend: true,
            series: [{ label: t('VQE energy'), values: history, colour: 'blue' as const }],
            ...(classical !== undefined ? { hLines: [{ y: classical, label: t('classical'), colour: 'green' as const }] } : {}),
          },
        ]
      : [];
  return { headline, facts, tables: entries.length ? [factTable('circuit', t('Circuit'), entries)] : [], plots };
}

/** "Fe2O3" → "Fe₂O₃" */
/**
 * The first ->, => or = with the space around it as ' → '. Found, then trimmed: a regex with \s* before the arrow
 * retried the run of spaces from each of its starts, quadratic in a service's long blank.
 */
function withArrow(equation: string): string {
  const at = equation.search(/->|=/);
  if (at < 0) return equation;
  const after = at + (equation.startsWith('->', at) || equation.startsWith('=>', at) ? 2 : 1);
  return `${equation.slice(0, at).trimEnd()} → ${equation.slice(after).trimStart()}`;
}

export function subscripts(formula: string): string {
  return formula.replace(/(?<=[A-Za-z)\]])\d+/g, (digits) => [...digits].map((d) => '₀₁₂₃₄₅₆₇₈₉'[Number(d)]).join(''));
}

function side(names: unknown, coefficients: unknown): string | undefined {
  if (!Array.isArray(names) || !Array.isArray(coefficients) || names.length !== coefficients.length) return undefined;
  const terms = names.map((n, i) => {
    const c = toNumber(coefficients[i]);
    return typeof n === 'string' && c !== undefined ? `${c === 1 ? '' : `${short(c)} `}${subscripts(n)}` : undefined;
  });
  return terms.every((t) => t !== undefined) ? terms.join(' + ') : undefined;
}

export function readReaction(f: Fields, _request: Rec, t: Translate): AppRead {
  const reactants = f.peek('reactants');
  const products = f.peek('products');
  const coefficients = f.peek('coefficients');
  let equation: string | undefined;
  const rows: { species: string; side: string; coefficient: unknown }[] = [];
  if (isRecord(coefficients) && Array.isArray(reactants) && Array.isArray(products)) {
    const left = side(reactants, coefficients.reactants);
    const right = side(products, coefficients.products);
    if (left && right) {
      equation = `${left} → ${right}`;
      ['reactants', 'products', 'coefficients'].forEach((n) => f.use(n));
      reactants.forEach((s, i) =>
        rows.push({ species: subscripts(String(s)), side: t('reactant'), coefficient: (coefficients.reactants as unknown[])[i] }),
      );
      products.forEach((s, i) =>
        rows.push({ species: subscripts(String(s)), side: t('product'), coefficient: (coefficients.products as unknown[])[i] }),
      );
    }
  }
  const balanced = f.text('balanced', 'balanced_equation', 'equation');
  if (!equation && balanced) equation = withArrow(subscripts(balanced));
  const table = recordTable(rows, {
    id: 'species',
    title: t('Coefficients'),
    known: [
      { names: ['species'], label: t('Species') },
      { names: ['side'], label: t('Side') },
      { names: ['coefficient'], label: t('Coefficient') },
    ],
  }).table;
  return {
    headline: equation ?? t('No balanced equation in the answer'),
    facts: equation ? [t('Balanced with the smallest whole-number coefficients')] : [],
    ...(equation ? { equation } : {}),
    tables: rows.length ? [table] : [],
    plots: [],
  };
}

const heaParameters = (t: Translate): [label: string, names: string[], unit: string][] => [
  [t('Valence electron concentration (VEC)'), ['valence_electron_concentration', 'vec', 'VEC'], ''],
  [t('Atomic size mismatch δ'), ['atomic_size_mismatch_percent', 'delta', 'size_mismatch'], '%'],
  [t('Mixing entropy ΔS_mix'), ['mixing_entropy', 'delta_s_mix', 'entropy'], 'J/(mol·K)'],
  ['ΔS_mix / R', ['mixing_entropy_over_R'], ''],
  [t('Mixing enthalpy ΔH_mix'), ['mixing_enthalpy', 'delta_h_mix'], 'kJ/mol'],
];

export function readHea(f: Fields, _request: Rec, t: Translate): AppRead {
  const phase = f.text('predicted_phase', 'phase', 'prediction');
  const parameters = f.nested('parameters');
  const entries: [string, string][] = [];
  for (const [label, names, unit] of heaParameters(t)) {
    const value = f.number(...names) ?? parameters?.number(...names);
    if (value !== undefined) entries.push([label, `${short(value, 5)}${unit ? ` ${unit}` : ''}`]);
  }
  f.read(['units'], (x) => (isRecord(x) ? x : undefined));
  const composition = f.read(
    ['composition', 'fractions'],
    (x) => (isRecord(x) && Object.values(x).every((v) => toNumber(v) !== undefined) ? x : undefined),
    f.t('element fractions'),
  );
  f.use('fractions');
  const highEntropy = f.boolean('is_high_entropy');
  const formula = f.text('formula');
  f.count('n_elements');
  const rows = Object.entries(composition ?? {}).map(([element, x]) => ({
    element,
    fraction: toNumber(x),
    percent: (toNumber(x) ?? 0) * 100,
  }));
  const tables = [
    ...(entries.length
      ? [
          factTable(
            'parameters',
            t('Parameters'),
            entries,
            t('Phase rule of thumb (Guo et al.): VEC ≥ 8 FCC, VEC < 6.87 BCC, between: FCC + BCC.'),
          ),
        ]
      : []),
    ...(rows.length
      ? [
          recordTable(rows, {
            id: 'composition',
            title: t('Composition'),
            known: [
              { names: ['element'], label: t('Element') },
              { names: ['fraction'], label: t('Fraction') },
              { names: ['percent'], label: t('at. %'), digits: 4 },
            ],
          }).table,
        ]
      : []),
  ];
  const facts = [
    ...(formula ? [t('Composition {0}', formula)] : []),
    ...(highEntropy !== undefined
      ? [
          highEntropy
            ? t('High-entropy alloy (5 or more elements, ΔS_mix ≥ 1.5 R)')
            : t('Not a high-entropy alloy by the 5-element, 1.5 R rule'),
        ]
      : []),
  ];
  const headline = phase ? t('Predicted phase: {0}', phase) : t('No predicted phase in the answer');
  return { headline, facts, tables, plots: [] };
}
