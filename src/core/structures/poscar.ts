/**
 * POSCAR in the shared model, both ways: a parsed POSCAR as a one-frame StructureFile (its richer editor
 * features keep reading the ParseResult), and any frame written as POSCAR text, which is what a run sends.
 * Pure.
 */
import { cartToFrac } from '../poscar/structure';
import { toPoscarText } from '../poscar/write';
import type { Mat3, ParseResult, Poscar, Site, Vec3 } from '../poscar/types';
import { hillFormula } from './summary';
import type { OutlineEntry, StructureFile, StructureFrame } from './types';
import { ENGLISH, plural, type Locale } from '../util/locale';

/** The shared model of a parsed POSCAR: one frame when the file could be read far enough. */
export function poscarStructureFile(result: ParseResult, { t }: Locale = ENGLISH): StructureFile {
  const poscar = result.poscar;
  if (!poscar) return { format: 'poscar', frames: [], diagnostics: result.diagnostics, outline: [] };
  const l = poscar.lines;
  const frame: StructureFrame = {
    lattice: poscar.lattice,
    pbc: [true, true, true],
    species: poscar.sites.map((s) => s.species),
    positions: poscar.sites.map((s) => s.cart),
    ...(poscar.selectiveDynamics ? { free: poscar.sites.map((s) => s.flags ?? [true, true, true]) } : {}),
    ...(poscar.sites.some((s) => s.label) ? { labels: poscar.sites.map((s) => s.label) } : {}),
    title: poscar.comment.trim(),
    lines: { first: l.comment, last: Math.max(l.sites.last, l.counts) },
  };
  const outline: OutlineEntry[] = [
    { name: t('Lattice'), detail: '', kind: 'section', lines: { first: l.scale, last: l.lattice[2] } },
    {
      name: t('Sites'),
      detail: t('{0} atoms', poscar.sites.length),
      kind: 'section',
      lines: { first: l.mode, last: Math.max(l.mode, l.sites.last) },
    },
  ];
  return { format: 'poscar', frames: [frame], diagnostics: result.diagnostics, outline };
}

/** Vacuum (Å) on each side of a molecule boxed for a POSCAR (a POSCAR needs a cell; the service needs one). */
export const MOLECULE_VACUUM = 10;

/** A molecule's box: its extent plus the vacuum on every side, with the atoms moved to its middle. */
export function boxMolecule(positions: readonly Vec3[], vacuum = MOLECULE_VACUUM): { lattice: Mat3; positions: Vec3[] } {
  const lo: Vec3 = [Infinity, Infinity, Infinity];
  const hi: Vec3 = [-Infinity, -Infinity, -Infinity];
  for (const p of positions)
    for (let k = 0; k < 3; k++) {
      lo[k] = Math.min(lo[k]!, p[k]!);
      hi[k] = Math.max(hi[k]!, p[k]!);
    }
  if (!positions.length) {
    lo.fill(0);
    hi.fill(0);
  }
  const size = [0, 1, 2].map((k) => hi[k]! - lo[k]! + 2 * vacuum) as Vec3;
  const lattice: Mat3 = [
    [size[0], 0, 0],
    [0, size[1], 0],
    [0, 0, size[2]],
  ];
  return { lattice, positions: positions.map((p) => [0, 1, 2].map((k) => p[k]! - lo[k]! + vacuum) as Vec3) };
}

/**
 * A frame as a Poscar: species in the frame's order, in runs of the same element (as ASE writes them,
 * so the atoms keep their order and read back identically); a molecule boxed with vacuum.
 */
export function frameToPoscar(frame: StructureFrame): Poscar {
  const boxed = frame.lattice ? { lattice: frame.lattice, positions: frame.positions } : boxMolecule(frame.positions);
  const species: string[] = [];
  const counts: number[] = [];
  const sites: Site[] = frame.species.map((symbol, i) => {
    if (species[species.length - 1] !== symbol) {
      species.push(symbol);
      counts.push(0);
    }
    counts[counts.length - 1]!++;
    const cart = boxed.positions[i]!;
    const flags = frame.free?.[i];
    return {
      species: symbol,
      speciesIndex: species.length - 1,
      frac: cartToFrac(boxed.lattice, cart),
      cart,
      ...(flags ? { flags } : {}),
      label: '',
      line: 0,
    };
  });
  const title = frame.title.replace(/[\r\n]+/g, ' ').trim() || hillFormula(frame.species);
  return {
    comment: frame.lattice ? title : `${title} (a molecule in a box with ${MOLECULE_VACUUM} Å of vacuum)`,
    scale: { kind: 'factor', values: [1] },
    lattice: boxed.lattice,
    species,
    speciesRaw: species,
    speciesSource: 'species-line',
    counts,
    selectiveDynamics: !!frame.free,
    coordinateMode: 'Direct',
    sites,
    lines: { comment: 0, scale: 1, lattice: [2, 3, 4], counts: 6, mode: 7, sitesBySpecies: [], sites: { first: 8, last: 7 } },
  };
}

/** POSCAR text of a frame (VASP 5, Direct coordinates, selective dynamics kept). */
export function frameToPoscarText(frame: StructureFrame): string {
  return toPoscarText(frameToPoscar(frame));
}

/**
 * Why a frame cannot be sent to a run (or converted to POSCAR) as it is, or undefined when it can: a site partly
 * occupied (CIF disorder) has no single atom to place.
 */
export function refusalToRun(frame: StructureFrame, name: string, locale: Locale = ENGLISH, convert = false): string | undefined {
  const partial = frame.occupancy?.findIndex((o) => o < 1 - 1e-6) ?? -1;
  if (partial < 0) return undefined;
  const count = frame.occupancy!.filter((o) => o < 1 - 1e-6).length;
  const label = frame.labels?.[partial] ?? `${frame.species[partial]} ${partial + 1}`;
  const args = [name, label, frame.occupancy![partial]!] as const;
  return convert
    ? plural(
        locale,
        count,
        '{1} has partial occupancy ({0} site, the first {2} at {3}), so Token Lens did not convert it to POSCAR: a calculation needs one atom on every site. Make an ordered model first (a supercell that places whole atoms, e.g. with pymatgen OrderDisorderedStructureTransformation or supercell), then run that file.',
        '{1} has partial occupancy ({0} sites, the first {2} at {3}), so Token Lens did not convert it to POSCAR: a calculation needs one atom on every site. Make an ordered model first (a supercell that places whole atoms, e.g. with pymatgen OrderDisorderedStructureTransformation or supercell), then run that file.',
        ...args,
      )
    : plural(
        locale,
        count,
        '{1} has partial occupancy ({0} site, the first {2} at {3}), so Token Lens did not send it: a calculation needs one atom on every site. Make an ordered model first (a supercell that places whole atoms, e.g. with pymatgen OrderDisorderedStructureTransformation or supercell), then run that file.',
        '{1} has partial occupancy ({0} sites, the first {2} at {3}), so Token Lens did not send it: a calculation needs one atom on every site. Make an ordered model first (a supercell that places whole atoms, e.g. with pymatgen OrderDisorderedStructureTransformation or supercell), then run that file.',
        ...args,
      );
}
