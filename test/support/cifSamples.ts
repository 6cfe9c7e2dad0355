/**
 * CIF text for the tests and the benchmark, written here (no file copied from anywhere):
 *
 * - Fm-3m (No. 225): its 192 operations, the 48 of point group m-3m (every signed permutation of x, y, z,
 *   International Tables Vol. A, space group 225) times the four face-centring translations
 *   (0,0,0), (0,½,½), (½,0,½), (½,½,0).
 * - A CIF builder for one block, and a large Fm-3m file whose sites sit in general positions (each gives
 *   192 atoms), for the ~10,000-atom benchmark.
 */

const PERMUTATIONS: ReadonlyArray<[number, number, number]> = [
  [0, 1, 2],
  [0, 2, 1],
  [1, 0, 2],
  [1, 2, 0],
  [2, 0, 1],
  [2, 1, 0],
];
const CENTRING = [
  ['', '', ''],
  ['', '1/2', '1/2'],
  ['1/2', '', '1/2'],
  ['1/2', '1/2', ''],
];

/** The 192 operations of Fm-3m as 'x,y,z' text; translations written both as '1/2+x' and 'x+1/2'. */
export function fm3mOperations(): string[] {
  const ops: string[] = [];
  let k = 0;
  for (const shift of CENTRING)
    for (const perm of PERMUTATIONS)
      for (let signs = 0; signs < 8; signs++) {
        const parts = perm.map((axis, row) => {
          const v = `${signs & (1 << row) ? '-' : ''}${'xyz'[axis]}`;
          const t = shift[row]!;
          if (!t) return v;
          return k++ % 2 === 0 ? `${t}${v.startsWith('-') ? v : `+${v}`}` : `${v}+${t}`;
        });
        ops.push(parts.join(','));
      }
  return ops;
}

export interface SampleSite {
  label: string;
  symbol?: string;
  xyz: [number | string, number | string, number | string];
  occupancy?: number | string;
}

export interface SampleBlock {
  name: string;
  cell: [number | string, number | string, number | string, number | string, number | string, number | string];
  ops?: string[];
  sites: SampleSite[];
  /** Extra lines inside the block, before the loops. */
  extra?: string[];
}

export function sampleCif(block: SampleBlock): string {
  const [a, b, c, alpha, beta, gamma] = block.cell;
  const lines = [
    `data_${block.name}`,
    `_cell_length_a ${a}`,
    `_cell_length_b ${b}`,
    `_cell_length_c ${c}`,
    `_cell_angle_alpha ${alpha}`,
    `_cell_angle_beta ${beta}`,
    `_cell_angle_gamma ${gamma}`,
    ...(block.extra ?? []),
  ];
  if (block.ops) lines.push('loop_', '_space_group_symop_operation_xyz', ...block.ops.map((op) => `'${op}'`));
  const symbols = block.sites.some((s) => s.symbol !== undefined);
  const occupancy = block.sites.some((s) => s.occupancy !== undefined);
  lines.push(
    'loop_',
    '_atom_site_label',
    ...(symbols ? ['_atom_site_type_symbol'] : []),
    '_atom_site_fract_x',
    '_atom_site_fract_y',
    '_atom_site_fract_z',
    ...(occupancy ? ['_atom_site_occupancy'] : []),
  );
  for (const s of block.sites)
    lines.push(
      [s.label, ...(symbols ? [s.symbol ?? '?'] : []), ...s.xyz.map(String), ...(occupancy ? [String(s.occupancy ?? 1)] : [])].join(' '),
    );
  return `${lines.join('\n')}\n`;
}

/** The space group's name and number (ASE needs one of them beside the operations). */
const FM3M_NAME = ["_symmetry_space_group_name_H-M 'F m -3 m'", '_symmetry_Int_Tables_number 225'];

/** Rock salt from its two sites in Fm-3m (a = 5.64 Å): 4 Na and 4 Cl. */
export const NACL_CIF = sampleCif({
  name: 'NaCl',
  cell: ['5.6400(2)', 5.64, 5.64, 90, 90, 90],
  extra: FM3M_NAME,
  ops: fm3mOperations(),
  sites: [
    { label: 'Na1', symbol: 'Na+', xyz: [0, 0, 0] },
    { label: 'Cl1', symbol: 'Cl-', xyz: [0.5, 0.5, 0.5] },
  ],
});

/** A seeded generator (mulberry32), so the large file is the same on every run. */
function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * `sites` sites in general positions of Fm-3m (x, y, z distinct, away from every mirror and axis), each
 * expanding to 192 atoms: 52 sites give 9,984 atoms. The cell is large enough that no two atoms come close.
 */
export function largeFm3mCif(sites = 52, seed = 11): { text: string; atoms: number } {
  const random = seeded(seed);
  const list: SampleSite[] = [];
  const symbols = ['Si', 'O', 'Al', 'Mg', 'Fe', 'Ca', 'Na', 'K'];
  while (list.length < sites) {
    // In the asymmetric unit's neighbourhood 0 < z < y < x < 1/4, kept apart from its borders.
    const x = 0.02 + random() * 0.21;
    const y = 0.01 + random() * (x - 0.02);
    const z = 0.005 + random() * (y - 0.01);
    if (x - y < 0.004 || y - z < 0.004 || z < 0.004) continue;
    if (list.some((s) => Math.max(...s.xyz.map((v, i) => Math.abs(Number(v) - [x, y, z][i]!))) < 0.004)) continue;
    list.push({ label: `${symbols[list.length % symbols.length]}${list.length + 1}`, xyz: [x.toFixed(6), y.toFixed(6), z.toFixed(6)] });
  }
  return {
    text: sampleCif({ name: 'large_Fm-3m', cell: [60, 60, 60, 90, 90, 90], extra: FM3M_NAME, ops: fm3mOperations(), sites: list }),
    atoms: sites * 192,
  };
}
