/**
 * Symmetry operations from a space group's name or number, for a CIF block that names its group but lists no
 * operations (pymatgen's CifParser generates them from the symbol in that case; ASE's reader from the number
 * or symbol). The table of the 530 settings (Hall numbers) and their operations is not written here: it comes
 * from moyo (spglib's successor, @spglib/moyo-wasm, MIT/Apache-2.0), which the caller loads (WebAssembly is not
 * the pure core's to load) and passes in; `spaceGroupsFromMoyo` adapts it. Without it the reader warns that the
 * sites may be only the asymmetric unit.
 *
 * Matching, in this order: the Hall symbol (`_space_group_name_Hall`, unambiguous); the Hermann–Mauguin symbol
 * (`_space_group_name_H-M_alt`, `_symmetry_space_group_name_H-M`) against each setting's full symbol, its
 * full symbol without the 1s of the axes not named (monoclinic 'P 1 21/n 1' is also 'P 21/n'), an orthorhombic
 * full symbol without its rotation parts ('P 21/b 21/n 21/m' is 'P b n m', a setting of Pnma), then the short
 * symbol of a group's standard setting, spaces, underscores and letter case ignored, a ':1' / ':2' / ':H' /
 * ':R' suffix choosing the origin or axes; then the number (`_space_group_IT_number`,
 * `_symmetry_Int_Tables_number`): the group's first setting. When a symbol fits several settings (origin
 * choices 1 and 2, hexagonal and rhombohedral axes) the first is taken, as spglib numbers them: origin choice 1,
 * hexagonal axes; the reader's warning names the setting used.
 */
import type { SymOp } from './symops';

export interface SpaceGroupSetting {
  /** 1–530, spglib's numbering of the settings. */
  hall: number;
  /** ITA number, 1–230. */
  number: number;
  /** '', '1', '2', 'H', 'R', 'b1', '-cba', … as spglib writes it. */
  setting: string;
  hallSymbol: string;
  hmShort: string;
  hmFull: string;
}

export interface SpaceGroupTable {
  settings: readonly SpaceGroupSetting[];
  /** The operations of a setting in its conventional cell (centring translations included). */
  operations(hall: number): SymOp[];
}

/** The part of @spglib/moyo-wasm's API the adapter uses. */
export interface MoyoLike {
  hall_symbol_entry(hallNumber: number): {
    hall_number: number;
    number: number;
    setting: string;
    hall_symbol: string;
    hm_short: string;
    hm_full: string;
  };
  operations_from_number(
    number: number,
    setting: { type: 'HallNumber'; value: number },
    primitive: boolean,
  ): Array<{ rotation: ArrayLike<number>; translation: ArrayLike<number> }>;
}

export function spaceGroupsFromMoyo(moyo: MoyoLike): SpaceGroupTable {
  const settings: SpaceGroupSetting[] = [];
  for (let hall = 1; hall <= 530; hall++) {
    const e = moyo.hall_symbol_entry(hall);
    settings.push({ hall, number: e.number, setting: e.setting, hallSymbol: e.hall_symbol, hmShort: e.hm_short, hmFull: e.hm_full });
  }
  return {
    settings,
    operations(hall) {
      const setting = settings[hall - 1];
      if (!setting) return [];
      return moyo
        .operations_from_number(setting.number, { type: 'HallNumber', value: hall }, false)
        .map(({ rotation: r, translation: t }) => ({
          rot: [
            [r[0]!, r[1]!, r[2]!],
            [r[3]!, r[4]!, r[5]!],
            [r[6]!, r[7]!, r[8]!],
          ],
          trans: [t[0]!, t[1]!, t[2]!],
        }));
    },
  };
}

const squeeze = (symbol: string): string => symbol.replace(/[\s_]/g, '').toLowerCase();

/** 'P 1 2_1/n 1' -> 'P 2_1/n': the axes a monoclinic full symbol marks with 1, left out. */
function withoutOnes(full: string): string | undefined {
  const parts = full.trim().split(/\s+/);
  const kept = parts.filter((p, i) => i === 0 || p !== '1');
  return kept.length > 1 && kept.length < parts.length ? kept.join(' ') : undefined;
}

/** 'P 2_1/b 2_1/n 2_1/m' -> 'P b n m': an orthorhombic full symbol as its short one (any axis setting). */
function orthorhombicShort(full: string): string | undefined {
  const parts = full.trim().split(/\s+/);
  if (parts.length !== 4 || !parts.slice(1).every((p) => p.includes('/'))) return undefined;
  return [parts[0], ...parts.slice(1).map((p) => p.slice(p.indexOf('/') + 1))].join(' ');
}

export interface GroupName {
  hm?: string;
  hall?: string;
  number?: number;
}

/** The setting a block's names point to, or undefined when none fits. */
export function findSetting(table: SpaceGroupTable, name: GroupName): SpaceGroupSetting | undefined {
  if (name.hall) {
    // Hall's double prime is written " in CIF files and = by moyo.
    const hallKey = (h: string) => h.trim().replace(/\s+/g, ' ').replace(/"/g, '=').toLowerCase();
    const wanted = hallKey(name.hall);
    const found = table.settings.find((s) => hallKey(s.hallSymbol) === wanted);
    if (found) return found;
  }
  if (name.hm) {
    const [symbol, suffix] = name.hm.split(':');
    const wanted = squeeze(symbol ?? '');
    if (wanted === '') return name.number === undefined ? undefined : findSetting(table, { number: name.number });
    const choice = suffix?.trim().toLowerCase();
    const fits = (s: SpaceGroupSetting) => !choice || s.setting.toLowerCase() === choice;
    const found =
      table.settings.find((s) => fits(s) && squeeze(s.hmFull) === wanted) ??
      table.settings.find((s) => fits(s) && squeeze(withoutOnes(s.hmFull) ?? '') === wanted) ??
      table.settings.find((s) => fits(s) && squeeze(orthorhombicShort(s.hmFull) ?? '') === wanted) ??
      table.settings.find((s) => fits(s) && squeeze(s.hmShort) === wanted);
    if (found) return found;
  }
  if (name.number !== undefined && Number.isInteger(name.number)) return table.settings.find((s) => s.number === name.number);
  return undefined;
}
