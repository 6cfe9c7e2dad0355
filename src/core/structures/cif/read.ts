/**
 * CIF structure reader: every data block with a cell and fractional atom sites becomes one frame (its
 * title the block's name), the sites expanded by the block's symmetry operations.
 *
 * Conventions, each with its source:
 * - The lattice is built as ASE's ase.geometry.cellpar_to_cell builds it (ASE 3.22): a along x, b in the
 *   xy plane, c completing a right-handed cell; an angle of exactly 90° gives a cosine of exactly 0.
 * - Copies of a site closer than 1e-3 in every fractional coordinate (periodic) are one position: ASE's
 *   default (`symprec=0.001` in ase.spacegroup.crystal / Spacegroup.equivalent_sites). pymatgen's CifParser
 *   uses 1e-4 (`site_tolerance`) after rounding coordinates within 1e-4 (relative) of 1/3 and 2/3; the looser
 *   tolerance merges the copies of a special position written with four decimals (0.3333) without rewriting
 *   any coordinate.
 * - Elements by pymatgen's rules (symbols.ts); numbers with a standard uncertainty '5.4307(2)' read as 5.4307
 *   (CIF 1.1 §2.2.7.4.8); '?' (unknown) and '.' (inapplicable) are values that are not given.
 * - Sites of occupancy 0 are left out, as pymatgen leaves them out.
 * - A block that names a space group but lists no symmetry operations gets the group's operations from the
 *   space-group table the caller passes (spaceGroups.ts: moyo's 530 settings), with a warning naming the
 *   setting, as pymatgen generates them from the symbol; without a table, or for a name no setting has, the
 *   sites are read as written (perhaps only the asymmetric unit) with a warning that says so.
 *
 * Total: never throws; linear in the text and in the positions generated; bounded by MAX_ATOMS.
 */
import type { Report } from '../../poscar/report';
import { plural, quote } from '../../poscar/report';
import type { Locale } from '../../util/locale';
import { reducedFormula } from '../../poscar/structure';
import type { Mat3, OutlineEntry, StructureFrame, Vec3 } from '../types';
import { column, firstColumn, type Block } from './blocks';
import type { Token } from './lexer';
import { apply, PeriodicHash, parseSymOp, type SymOp } from './symops';
import { findSetting, type SpaceGroupTable } from './spaceGroups';
import { siteElement } from './symbols';

/** Fractional distance under which two copies of a site are one (ASE's symprec default). */
export const SITE_TOLERANCE = 1e-3;
/** Symmetry operations a block may list (a space group has at most 192 in its conventional cell). */
export const MAX_OPERATIONS = 1536;
/** Atoms after expansion, over the whole file. */
export const MAX_ATOMS = 200_000;
/**
 * Positions generated (sites × operations) before duplicates are merged, over the whole file: copies that merge add
 * no atoms, so the atom cap alone let block after block do this work.
 */
export const MAX_GENERATED = 4_000_000;

export const SYMOP_KEYS = ['_symmetry_equiv_pos_as_xyz', '_space_group_symop_operation_xyz'] as const;
const HM_KEYS = ['_space_group_name_h-m_alt', '_symmetry_space_group_name_h-m'] as const;
const HALL_KEYS = ['_space_group_name_hall', '_symmetry_space_group_name_hall'] as const;
const NUMBER_KEYS = ['_space_group_it_number', '_symmetry_int_tables_number'] as const;
const CELL_KEYS = [
  '_cell_length_a',
  '_cell_length_b',
  '_cell_length_c',
  '_cell_angle_alpha',
  '_cell_angle_beta',
  '_cell_angle_gamma',
] as const;

/** Hydrogens a site's name implies (pymatgen CifParser's get_num_implicit_hydrogens). */
const IMPLICIT_H: Record<string, number> = { Wat: 2, wat: 2, 'O-H': 1 };

const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?(?:\(\d+\))?$/;

const rangeOf = (t: Token) => ({ line: t.line, start: t.start, end: t.end });

/** Unknown ('?' or '.') or not given. */
export const isUnknown = (t: Token | undefined): boolean => !t || t.kind === 'compound' || (t.plain && (t.text === '?' || t.text === '.'));

/** A CIF number: the value without its standard uncertainty; 'unknown' for ? and .; 'bad' otherwise. */
export function cifNumber(t: Token | undefined): number | 'unknown' | 'bad' {
  if (isUnknown(t)) return 'unknown';
  const text = t!.text.trim();
  if (!NUMBER.test(text)) return 'bad';
  const paren = text.indexOf('(');
  const value = Number(paren < 0 ? text : text.slice(0, paren));
  return Number.isFinite(value) ? value : 'bad';
}

const RAD = Math.PI / 180;

/** ASE's cellpar_to_cell (ase/geometry/cell.py): a along x, b in the xy plane; undefined for impossible angles. */
export function cellFromParameters(a: number, b: number, c: number, alpha: number, beta: number, gamma: number): Mat3 | undefined {
  const eps = 2 * 2 ** -46; // 2 * np.spacing(90.0), as ASE
  const cosA = Math.abs(Math.abs(alpha) - 90) < eps ? 0 : Math.cos(alpha * RAD);
  const cosB = Math.abs(Math.abs(beta) - 90) < eps ? 0 : Math.cos(beta * RAD);
  let cosG: number;
  let sinG: number;
  if (Math.abs(gamma - 90) < eps) [cosG, sinG] = [0, 1];
  else [cosG, sinG] = [Math.cos(gamma * RAD), Math.sin(gamma * RAD)];
  const cx = cosB;
  const cy = (cosA - cosB * cosG) / sinG;
  const czSquared = 1 - cx * cx - cy * cy;
  if (!(czSquared > 1e-12)) return undefined;
  return [
    [a, 0, 0],
    [b * cosG, b * sinG, 0],
    [c * cx, c * cy, c * Math.sqrt(czSquared)],
  ];
}

/** Labels for a message: 'Fe1, O2 and 3 more'. */
function names(list: readonly string[], max = 6): string {
  if (list.length <= max) return list.join(', ');
  return `${list.slice(0, max).join(', ')} and ${list.length - max} more`;
}

interface Site {
  label: string;
  labelToken?: Token;
  species: string;
  frac: Vec3;
  occupancy: number;
}

export interface BlockResult {
  frame?: StructureFrame;
  outline: OutlineEntry;
}

export interface Budget {
  atoms: number;
  /** Positions generated so far (MAX_GENERATED). */
  generated: number;
}

export interface CifOptions {
  /** The 530 space-group settings and their operations (spaceGroupsFromMoyo), for blocks that name a group but list no operations. */
  spaceGroups?: SpaceGroupTable;
  /** The wording of problems and of the outline (English by default). */
  locale?: Locale;
}
interface Findings {
  partial: string[];
  above: string[];
  zero: string[];
  grouped: string[];
  attached: string[];
  dots: string[];
  unknownElements: string[];
  firstPartial?: Token | undefined;
  firstAbove?: Token | undefined;
  firstZero?: Token | undefined;
  firstGroup?: Token | undefined;
  firstAttached?: Token | undefined;
  firstDot?: Token | undefined;
  firstUnknown?: Token | undefined;
}

/** The tag's token (for a diagnostic's place), or the block's head when the block has no such tag. */
const tagIn = (block: Block, key: string): Token =>
  block.items.get(key)?.tag ?? block.looped.get(key)?.loop.tags[block.looped.get(key)!.column] ?? block.head;

export function readBlock(block: Block, report: Report, budget: Budget, options: CifOptions = {}): BlockResult {
  const outline: OutlineEntry = {
    name: block.name || '(unnamed block)',
    detail: '',
    kind: 'block',
    lines: { ...block.lines },
    children: block.loops.map((loop) => ({
      name: category(loop.keys),
      detail: `${plural(loop.rows, 'row')}, ${plural(loop.tags.length, 'column')}`,
      kind: 'section' as const,
      lines: { ...loop.lines },
    })),
  };
  const done = (detail: string, frame?: StructureFrame): BlockResult => {
    outline.detail = detail;
    return frame ? { frame, outline } : { outline };
  };
  const columns = atomColumns(block, report);
  if (typeof columns === 'string') return done(columns);
  const lattice = readLattice(block, report);
  if (typeof lattice === 'string') return done(lattice);
  const F: Findings = { partial: [], above: [], zero: [], grouped: [], attached: [], dots: [], unknownElements: [] };
  const sites = readSites(block, report, columns, F);
  if (typeof sites === 'string') return done(sites);
  const ops = symmetryOperations(block, report, sites.length, options);
  if (typeof ops === 'string') return done(ops);
  const hash = expandSites(block, report, sites, ops, budget, F);
  if (typeof hash === 'string') return done(hash);
  if (hash.size === 0) return done('no atoms read');
  const { frame, detail } = frameOf(block, lattice, sites, hash, report.locale);
  budget.atoms += frame.positions.length;
  return done(detail, frame);
}

interface Columns {
  fx: Token[];
  fy: Token[];
  fz: Token[];
  labels: Token[] | undefined;
  symbols: Token[] | undefined;
}

/** The atom-site columns, or why the block has no structure. */
function atomColumns(block: Block, report: Report): Columns | string {
  const fx = column(block, '_atom_site_fract_x');
  const fy = column(block, '_atom_site_fract_y');
  const fz = column(block, '_atom_site_fract_z');
  const cartesian = column(block, '_atom_site_cartn_x') ?? column(block, '_atom_site_cartn_y') ?? column(block, '_atom_site_cartn_z');
  const labels = column(block, '_atom_site_label');
  const symbols = column(block, '_atom_site_type_symbol');
  const hasCell = CELL_KEYS.some((key) => column(block, key));
  const tagOf = (key: string): Token => tagIn(block, key);

  if (!fx && !fy && !fz) {
    if (cartesian) {
      const key = ['_atom_site_cartn_x', '_atom_site_cartn_y', '_atom_site_cartn_z'].find((k) => column(block, k))!;
      report.error(
        'cartesian-only',
        rangeOf(tagOf(key)),
        `block ${quote(block.name)} gives only Cartesian coordinates (_atom_site_Cartn_x/y/z), whose axes depend on a convention it does not reliably state: a structure is read from fractional coordinates (_atom_site_fract_x/y/z), so none is read here`,
      );
      return 'Cartesian coordinates only: not read';
    }
    if (labels || symbols) {
      report.error(
        'no-coordinates',
        rangeOf(tagOf(labels ? '_atom_site_label' : '_atom_site_type_symbol')),
        `block ${quote(block.name)} lists atom sites but no fractional coordinates (_atom_site_fract_x/y/z)`,
      );
      return 'no coordinates';
    }
    if (hasCell)
      report.warning(
        'no-atoms',
        rangeOf(block.head),
        `block ${quote(block.name)} has a cell but no atom sites: no structure is read from it`,
      );
    return hasCell ? 'cell, no atoms' : 'no structure';
  }
  if (!fx || !fy || !fz) {
    const missing = (['x', 'y', 'z'] as const).filter((_, i) => ![fx, fy, fz][i]).map((a) => `_atom_site_fract_${a}`);
    const present = (['x', 'y', 'z'] as const).find((_, i) => [fx, fy, fz][i])!;
    report.error(
      'missing-coordinate',
      rangeOf(tagOf(`_atom_site_fract_${present}`)),
      `block ${quote(block.name)} has no ${missing.join(' or ')}: its atom sites cannot be placed`,
    );
    return 'coordinates incomplete';
  }

  return { fx, fy, fz, labels, symbols };
}

/** The cell as lattice vectors, or why there is none. */
function readLattice(block: Block, report: Report): Mat3 | string {
  // The cell: all six parameters, or no structure.
  const cell: number[] = [];
  const missing: string[] = [];
  let badCell = false;
  CELL_KEYS.forEach((key, i) => {
    const token = column(block, key)?.[0];
    const value = cifNumber(token);
    if (value === 'unknown') missing.push(key);
    else if (value === 'bad') {
      badCell = true;
      report.error('bad-cell', rangeOf(token!), `${quote(token!.text)} is not a number (${key})`);
    } else if (i < 3 ? !(value > 0) : !(value > 0 && value < 180)) {
      badCell = true;
      report.error(
        'bad-cell',
        rangeOf(token!),
        i < 3 ? `a cell length must be positive, not ${token!.text}` : `a cell angle must lie between 0° and 180°, not ${token!.text}`,
      );
    }
    cell.push(typeof value === 'number' ? value : NaN);
  });
  if (missing.length > 0) {
    report.error(
      'missing-cell',
      rangeOf(block.head),
      `block ${quote(block.name)} has atom sites but no cell: ${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} missing or unknown (fractional coordinates need all six cell parameters)`,
    );
    return 'no cell';
  }
  if (badCell) return 'bad cell';
  const lattice = cellFromParameters(cell[0]!, cell[1]!, cell[2]!, cell[3]!, cell[4]!, cell[5]!);
  if (!lattice) {
    report.error(
      'bad-cell',
      rangeOf(column(block, '_cell_angle_alpha')![0]!),
      `no cell has the angles α = ${cell[3]}°, β = ${cell[4]}°, γ = ${cell[5]}° (each must be less than the sum of the other two, and their sum less than 360°)`,
    );
    return 'bad cell';
  }

  return lattice;
}

/** The sites as written, or why there are none; what needs a warning is collected in F. */
function readSites(block: Block, report: Report, columns: Columns, F: Findings): Site[] | string {
  const { fx, fy, fz, labels, symbols } = columns;
  const tagOf = (key: string): Token => tagIn(block, key);
  // The sites as written.
  if (!labels && !symbols) {
    report.error(
      'no-species',
      rangeOf(tagOf('_atom_site_fract_x')),
      `block ${quote(block.name)} names no element for its sites (_atom_site_type_symbol or _atom_site_label)`,
    );
    return 'no elements';
  }
  const occupancies = column(block, '_atom_site_occupancy');
  const groups = column(block, '_atom_site_disorder_group');
  const hydrogens = column(block, '_atom_site_attached_hydrogens');
  const lengths = [fx, fy, fz, labels, symbols, occupancies, groups].filter((c): c is Token[] => c !== undefined).map((c) => c.length);
  const n = Math.min(...lengths);
  if (Math.max(...lengths) !== n)
    report.error(
      'site-columns',
      rangeOf(tagOf('_atom_site_fract_x')),
      `the atom-site columns of block ${quote(block.name)} have different lengths (${[...new Set(lengths)].join(', ')}); only the first ${n} sites are read`,
    );

  const sites: Site[] = [];
  const extra = { occupancies, groups, hydrogens };
  for (let r = 0; r < n; r++) {
    const site = readSite(report, columns, extra, r, F);
    if (site) sites.push(site);
  }
  reportSites(block, report, F);
  return sites;
}

interface Extra {
  occupancies: Token[] | undefined;
  groups: Token[] | undefined;
  hydrogens: Token[] | undefined;
}

function readSite(
  report: Report,
  { fx, fy, fz, labels, symbols }: Columns,
  { occupancies, groups, hydrogens }: Extra,
  r: number,
  F: Findings,
): Site | undefined {
  const labelToken = labels?.[r];
  const symbolToken = symbols && !isUnknown(symbols[r]) ? symbols[r] : labelToken;
  const label = labelToken && !isUnknown(labelToken) ? labelToken.text : (symbolToken?.text ?? `site ${r + 1}`);
  const frac: number[] = [];
  let placed = true;
  for (const c of [fx, fy, fz]) {
    const t = c[r]!;
    let v = cifNumber(t);
    if (t.plain && t.text === '.') {
      // ICSD writes '.' for a coordinate fixed at 0 by symmetry; pymatgen reads it as 0 (str2float).
      v = 0;
      F.dots.push(label);
      F.firstDot ??= t;
    }
    if (typeof v !== 'number') {
      report.error(
        'bad-coordinate',
        rangeOf(t),
        v === 'unknown'
          ? `site ${quote(label)} has an unknown coordinate (${t.text}): the site is left out`
          : `${quote(t.text)} is not a number: site ${quote(label)} is left out`,
      );
      placed = false;
      break;
    }
    frac.push(v);
  }
  if (!placed) return undefined;
  let occupancy = 1;
  const occToken = occupancies?.[r];
  const occ = cifNumber(occToken);
  if (occ === 'bad')
    report.error(
      'bad-occupancy',
      rangeOf(occToken!),
      `${quote(occToken!.text)} is not a number: site ${quote(label)} is read as fully occupied`,
    );
  else if (occ !== 'unknown') occupancy = occ;
  if (occupancy <= 0) {
    F.zero.push(label);
    F.firstZero ??= occToken;
    return undefined;
  }
  if (occupancy < 1 - 1e-6) {
    F.partial.push(`${label} ${occupancy}`);
    F.firstPartial ??= occToken;
  } else if (occupancy > 1 + 1e-6) {
    F.above.push(`${label} ${occupancy}`);
    F.firstAbove ??= occToken;
  }
  const group = groups?.[r];
  if (group && !isUnknown(group)) {
    F.grouped.push(`${label} (group ${group.text})`);
    F.firstGroup ??= group;
  }
  const h = cifNumber(hydrogens?.[r]);
  // Water as one site ('Wat', 2 H) or a hydroxyl ('O-H', 1 H): pymatgen's get_num_implicit_hydrogens.
  const implied = symbolToken ? (IMPLICIT_H[symbolToken.text.slice(0, 3)] ?? 0) : 0;
  if (typeof h === 'number' && h > 0) {
    F.attached.push(`${label} (${h})`);
    F.firstAttached ??= hydrogens![r];
  } else if (implied > 0) {
    F.attached.push(`${label} (${implied})`);
    F.firstAttached ??= symbolToken;
  }
  let species = symbolToken ? siteElement(symbolToken.text) : undefined;
  if (!species) {
    F.unknownElements.push(symbolToken?.text ?? label);
    F.firstUnknown ??= symbolToken;
    species = 'X';
  }
  return { label, ...(labelToken ? { labelToken } : {}), species, frac: frac as Vec3, occupancy: Math.min(occupancy, 1) };
}

function reportSites(block: Block, report: Report, F: Findings): void {
  const where = (t: Token | undefined) => rangeOf(t ?? block.head);
  if (F.unknownElements.length > 0)
    report.warning(
      'unknown-element',
      where(F.firstUnknown),
      `no element found in ${names(F.unknownElements.map(quote))}: ${F.unknownElements.length === 1 ? 'the site is' : 'these sites are'} read as X`,
    );
  if (F.dots.length > 0)
    report.warning(
      'dot-coordinate',
      where(F.firstDot),
      `'.' (inapplicable) given as a coordinate of ${names([...new Set(F.dots)])}: read as 0, as pymatgen reads it (ICSD writes '.' for a coordinate fixed at 0)`,
    );
  if (F.zero.length > 0)
    report.warning(
      'zero-occupancy',
      where(F.firstZero),
      `${plural(F.zero.length, 'site')} of occupancy 0 left out (as pymatgen does): ${names(F.zero)}`,
    );
  if (F.above.length > 0) report.warning('occupancy-above-one', where(F.firstAbove), `occupancy F.above 1 (read as 1): ${names(F.above)}`);
  if (F.attached.length > 0)
    report.warning(
      'implicit-hydrogens',
      where(F.firstAttached),
      `hydrogens F.attached to ${names(F.attached)} (by _atom_site_attached_hydrogens, or a water or hydroxyl written as one site) have no sites: the structure lacks them`,
    );
}

/** The block's symmetry operations (the identity when it gives none), or why no structure is read. */
function symmetryOperations(block: Block, report: Report, siteCount: number, options: CifOptions): SymOp[] | string {
  const tagOf = (key: string): Token => tagIn(block, key);
  // Symmetry operations.
  const opsColumn = firstColumn(block, SYMOP_KEYS);
  const ops: SymOp[] = [];
  if (opsColumn) {
    if (opsColumn.values.length > MAX_OPERATIONS) {
      report.error(
        'too-many-operations',
        rangeOf(tagOf(opsColumn.key)),
        `${opsColumn.values.length} symmetry operations: more than the ${MAX_OPERATIONS} read; no structure is read from block ${quote(block.name)}`,
      );
      return 'too many symmetry operations';
    }
    for (const t of opsColumn.values) {
      if (isUnknown(t)) continue;
      const parsed = parseSymOp(t.text);
      if ('op' in parsed) ops.push(parsed.op);
      else
        report.error(
          'bad-symop',
          rangeOf(t),
          `${quote(t.text)} is not a symmetry operation: ${parsed.error}; the structure lacks the atoms it would place`,
        );
    }
    if (ops.length > 0 && !ops.some(isIdentity))
      report.warning(
        'no-identity',
        rangeOf(tagOf(opsColumn.key)),
        'the symmetry operations do not include the identity (x, y, z): the sites as written may be missing from the structure',
      );
  }
  if (ops.length === 0 && !opsColumn) ops.push(...operationsFromName(block, report, siteCount, options));
  if (ops.length === 0)
    ops.push({
      rot: [
        [1, 0, 0],
        [0, 1, 0],
        [0, 0, 1],
      ],
      trans: [0, 0, 0],
    });

  return ops;
}

/** A named group's operations from the table; none (with a warning) when there is no table or no such group. */
function operationsFromName(block: Block, report: Report, siteCount: number, options: CifOptions): SymOp[] {
  const given = (keys: readonly string[]): Token | undefined => {
    const t = firstColumn(block, keys)?.values[0];
    return t && !isUnknown(t) ? t : undefined;
  };
  const hm = given(HM_KEYS);
  const hall = given(HALL_KEYS);
  const numberToken = given(NUMBER_KEYS);
  const number = cifNumber(numberToken);
  const token = hm ?? hall ?? numberToken;
  const label = token?.text.trim() ?? '';
  const p1 = ['p1', '1'].includes(label.replace(/[\s_]/g, '').toLowerCase());
  if (token && !p1) {
    const table = options.spaceGroups;
    const setting = table
      ? findSetting(table, {
          ...(hm ? { hm: hm.text } : {}),
          ...(hall ? { hall: hall.text } : {}),
          ...(typeof number === 'number' ? { number } : {}),
        })
      : undefined;
    const generated = setting ? table!.operations(setting.hall) : [];
    if (setting && generated.length > 0) {
      report.warning(
        'operations-from-symbol',
        rangeOf(token),
        `block ${quote(block.name)} lists no symmetry operations: the ${generated.length} operations of space group ${setting.hmFull} (No. ${setting.number}${setting.setting ? `, setting ${setting.setting}` : ''}, Hall symbol ${setting.hallSymbol}) were generated from ${quote(label)}, as pymatgen does; the file's coordinates must be in this setting`,
      );
      return generated;
    } else
      report.warning(
        'asymmetric-unit-only',
        rangeOf(token),
        `block ${quote(block.name)} names space group ${quote(label)} but lists no symmetry operations (_space_group_symop_operation_xyz): only the ${plural(siteCount, 'site')} as written are read, which may be just the asymmetric unit (${table ? 'no setting of the 230 space groups has this name' : 'the space-group table that would give its operations is not loaded'})`,
      );
  }
  return [];
}

/** Every site's copies, merged within SITE_TOLERANCE, or why no structure is read. */
function expandSites(block: Block, report: Report, sites: Site[], ops: SymOp[], budget: Budget, F: Findings): PeriodicHash | string {
  // Expansion, with copies within SITE_TOLERANCE merged.
  const left = MAX_GENERATED - budget.generated;
  if (sites.length * ops.length > left) {
    report.error(
      'too-many-atoms',
      rangeOf(block.head),
      `${plural(sites.length, 'site')} × ${plural(ops.length, 'symmetry operation')} would generate ${sites.length * ops.length} positions, more than the ${left} left of the ${MAX_GENERATED} read from a file: no structure is read from block ${quote(block.name)}`,
    );
    return 'too large';
  }
  budget.generated += sites.length * ops.length;
  const hash = new PeriodicHash(SITE_TOLERANCE);
  const shared = new Set<string>();
  const overfull = new Map<string, { token: Token | undefined; total: number }>();
  const coincide = new Map<string, Token | undefined>();
  const state = { crowded: false };
  for (let s = 0; s < sites.length; s++) {
    const site = sites[s]!;
    for (const op of ops) {
      const p = apply(op, site.frac);
      const near = hash.near(p);
      let keep = true;
      for (const index of near) {
        const other = hash.tags[index]!;
        if (other === s) {
          keep = false;
          break;
        }
      }
      if (keep && near.length > 0) {
        const first = sites[hash.tags[near[0]!]!]!;
        if (site.occupancy < 1 || first.occupancy < 1) {
          const key = `${first.label} and ${site.label}`;
          shared.add(key);
          const tags = new Set(near.map((index) => hash.tags[index]!));
          let total = site.occupancy;
          for (const tag of tags) total += sites[tag]!.occupancy;
          if (total > 1 + 1e-3) {
            const together = [...[...tags].map((tag) => sites[tag]!.label), site.label].join(' + ');
            if (!overfull.has(together)) overfull.set(together, { token: site.labelToken, total });
          }
        } else {
          coincide.set(`${site.label} on ${first.label}`, site.labelToken);
          keep = false;
        }
      }
      if (!keep) continue;
      if (hash.size >= MAX_ATOMS - budget.atoms) {
        report.error(
          'too-many-atoms',
          rangeOf(block.head),
          `block ${quote(block.name)} expands to more than ${MAX_ATOMS - budget.atoms} atoms (at most ${MAX_ATOMS} are read from a file): no structure is read from it`,
        );
        return 'too large';
      }
      if (hash.add(p, s) < 0) state.crowded = true;
    }
  }
  reportExpansion(block, report, F, { ...state, shared, overfull, coincide });
  return hash;
}

interface Expansion {
  crowded: boolean;
  shared: Set<string>;
  overfull: Map<string, { token: Token | undefined; total: number }>;
  coincide: Map<string, Token | undefined>;
}

function reportExpansion(block: Block, report: Report, F: Findings, { crowded, shared, overfull, coincide }: Expansion): void {
  const where = (t: Token | undefined) => rangeOf(t ?? block.head);
  if (crowded)
    report.error(
      'crowded-position',
      rangeOf(block.head),
      `block ${quote(block.name)} puts more sites on one position than any structure has: some were left out`,
    );
  if (coincide.size > 0) {
    const first = [...coincide.values()][0];
    report.warning(
      'sites-coincide',
      where(first),
      `fully occupied sites fall on one position (within ${SITE_TOLERANCE} in fractional coordinates): ${names([...coincide.keys()])}; the later site's copies there are left out`,
    );
  }
  if (F.partial.length > 0)
    report.warning(
      'partial-occupancy',
      where(F.firstPartial),
      `${plural(F.partial.length, 'site')} partly occupied: ${names(F.partial)}${shared.size > 0 ? `; sharing a position: ${names([...shared.keys()], 4)}` : ''}. The structure is disordered: it lists every position with its occupancy, and a calculation needs an ordered cell`,
    );
  if (F.grouped.length > 0)
    report.warning(
      'disorder',
      where(F.firstGroup),
      `sites in disorder groups (alternative positions, not all present at once): ${names(F.grouped)}`,
    );
  if (overfull.size > 0) {
    const [first] = overfull.values();
    report.warning(
      'overfull-position',
      where(first!.token),
      `occupancies on one position add up to more than 1: ${names(
        [...overfull].map(([together, { total }]) => `${together} = ${Math.round(total * 1000) / 1000}`),
        4,
      )} (pymatgen refuses such a structure)`,
    );
  }
}

function frameOf(
  block: Block,
  lattice: Mat3,
  sites: Site[],
  hash: PeriodicHash,
  locale: Locale,
): { frame: StructureFrame; detail: string } {
  const species: string[] = [];
  const labelsOut: string[] = [];
  const occupancy: number[] = [];
  const positions: Vec3[] = [];
  const { coords } = hash;
  for (let i = 0; i < hash.size; i++) {
    const site = sites[hash.tags[i]!]!;
    species.push(site.species);
    labelsOut.push(site.label);
    occupancy.push(site.occupancy);
    const [x, y, z] = [coords[3 * i]!, coords[3 * i + 1]!, coords[3 * i + 2]!];
    positions.push([
      x * lattice[0][0] + y * lattice[1][0] + z * lattice[2][0],
      x * lattice[0][1] + y * lattice[1][1] + z * lattice[2][1],
      x * lattice[0][2] + y * lattice[1][2] + z * lattice[2][2],
    ]);
  }
  const frame: StructureFrame = {
    lattice,
    pbc: [true, true, true],
    species,
    positions,
    labels: labelsOut,
    ...(occupancy.some((o) => o < 1) ? { occupancy } : {}),
    title: block.name,
    lines: { ...block.lines },
  };
  const counts = new Map<string, number>();
  for (const s of species) counts.set(s, (counts.get(s) ?? 0) + 1);
  const formula = positions.length ? reducedFormula({ species: [...counts.keys()], counts: [...counts.values()] }) : '';
  return { frame, detail: blockDetail(locale, formula, positions.length, frame.occupancy !== undefined) };
}

/** "GaAs, 8 atoms, disordered": whole phrases, so that a translation orders them as its language does. */
function blockDetail({ t }: Locale, formula: string, atoms: number, disordered: boolean): string {
  const count = atoms === 1 ? t('{0} atom', atoms) : t('{0} atoms', atoms);
  if (!formula) return disordered ? t('{0}, disordered', count) : count;
  return disordered ? t('{0}, {1}, disordered', formula, count) : t('{0}, {1}', formula, count);
}

const isIdentity = (op: SymOp): boolean =>
  op.rot.every((row, i) => row.every((v, j) => v === (i === j ? 1 : 0))) && op.trans.every((t) => Math.abs(t - Math.round(t)) < 1e-9);

/** A loop's name for the outline: its tags' common category, '_atom_site' for _atom_site_label, _atom_site_fract_x… */
function category(keys: readonly string[]): string {
  if (keys.length === 0) return 'loop_';
  let prefix = keys[0]!;
  for (const key of keys) {
    let i = 0;
    while (i < prefix.length && i < key.length && prefix[i] === key[i]) i++;
    prefix = prefix.slice(0, i);
  }
  const cut = keys.length === 1 ? keys[0]!.length : prefix.lastIndexOf('_');
  return `loop_ ${cut > 0 ? prefix.slice(0, cut) : keys[0]!}`;
}
