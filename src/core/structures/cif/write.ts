/**
 * One frame as a CIF 1.1 file in space group P1: the cell as its six parameters, every site written out with
 * fractional coordinates (no symmetry to expand: `_symmetry_equiv_pos_as_xyz 'x, y, z'` and its CIF 2 name
 * `_space_group_symop_operation_xyz`), labels kept when the frame's are usable and unique, and occupancies
 * when the frame has them. ASE (ase.io.read) and pymatgen (CifParser) read it back to the same atoms
 * (test/unit/core/structures/cif/cif.oracle.test.ts checks this).
 *
 * A frame without a cell (a molecule) is written with Cartesian coordinates and no cell, which is valid CIF
 * but not a crystal structure: readCif says so when it reads it back.
 *
 * Pure; never throws.
 */
import { element } from '../../poscar/elements';
import { cartToFrac, latticeParameters } from '../../poscar/structure';
import type { StructureFrame } from '../types';

/** A block name or label: printable ASCII without spaces, as CIF 1.1 allows. */
const bare = (text: string): string => text.replace(/[^\x21-\x7e]/g, '_');

/** A label CIF reads back as written: not starting with a character that opens something else, not ? or . */
const usableLabel = (label: string): boolean =>
  /^[A-Za-z0-9][\x21-\x7e]*$/.test(label) && label.length <= 64 && !/^(data|loop|save|global|stop)_/i.test(label);

const fixed = (v: number, digits: number): string => {
  const s = (Object.is(v, -0) ? 0 : v).toFixed(digits);
  return /^-0\.0*$/.test(s) ? s.slice(1) : s;
};

export function writeCif(frame: StructureFrame, name?: string): string {
  const blockName = bare(name ?? frame.title ?? '').slice(0, 64) || 'structure';
  const n = Math.min(frame.species.length, frame.positions.length);
  const species = frame.species.slice(0, n).map((s) => (element(s) ? s : 'X'));
  const given = frame.labels?.slice(0, n);
  const labels =
    given && given.length === n && given.every(usableLabel) && new Set(given).size === n
      ? given
      : (() => {
          const seen = new Map<string, number>();
          return species.map((s) => {
            const k = (seen.get(s) ?? 0) + 1;
            seen.set(s, k);
            return `${s}${k}`;
          });
        })();
  const occupancy = frame.occupancy?.length === n ? frame.occupancy : undefined;
  const out: string[] = ['# Written by Token Lens: every site of the structure, space group P1', `data_${blockName}`];

  if (!frame.lattice) {
    out.push(
      'loop_',
      '_atom_site_label',
      '_atom_site_type_symbol',
      '_atom_site_Cartn_x',
      '_atom_site_Cartn_y',
      '_atom_site_Cartn_z',
      ...labels.map((label, i) => `${label} ${species[i]} ${frame.positions[i]!.map((v) => fixed(v, 8)).join(' ')}`),
    );
    return `${out.join('\n')}\n`;
  }
  const { a, b, c, alpha, beta, gamma } = latticeParameters(frame.lattice);
  out.push(
    "_symmetry_space_group_name_H-M   'P 1'",
    '_symmetry_Int_Tables_number      1',
    `_cell_length_a    ${fixed(a, 10)}`,
    `_cell_length_b    ${fixed(b, 10)}`,
    `_cell_length_c    ${fixed(c, 10)}`,
    `_cell_angle_alpha ${fixed(alpha, 10)}`,
    `_cell_angle_beta  ${fixed(beta, 10)}`,
    `_cell_angle_gamma ${fixed(gamma, 10)}`,
    '',
    'loop_',
    '_symmetry_equiv_pos_site_id',
    '_symmetry_equiv_pos_as_xyz',
    "1 'x, y, z'",
    '',
    'loop_',
    '_atom_site_label',
    '_atom_site_type_symbol',
    '_atom_site_fract_x',
    '_atom_site_fract_y',
    '_atom_site_fract_z',
    ...(occupancy ? ['_atom_site_occupancy'] : []),
  );
  for (let i = 0; i < n; i++) {
    const f = cartToFrac(frame.lattice, frame.positions[i]!);
    const occ = occupancy ? ` ${fixed(occupancy[i]!, 6)}` : '';
    out.push(`${labels[i]} ${species[i]} ${f.map((v) => fixed(v, 10)).join(' ')}${occ}`);
  }
  return `${out.join('\n')}\n`;
}
