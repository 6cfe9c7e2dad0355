/** heterostructure/generate: a film on a substrate, from POSCAR text or jids. */
import type { Mat3 } from '../../core/poscar/types';
import { buildInterface, INTERFACE_DEFAULTS, MAX_INTERFACE_ATOMS, type Slab } from '../heterostructure';
import { HttpError, material, num, str, type Handler, type Json } from '../http/body';
import { readStructure } from './structures';

/** A structure given as POSCAR text (`poscar_<role>`, `<role>_poscar`) or as a jid (`<role>_jid`, or an alias). */
const slab = (body: Json, role: 'film' | 'subs', jidFields: string[]): Slab => {
  const poscarField = [`poscar_${role}`, `${role === 'subs' ? 'substrate' : 'film'}_poscar`].find(
    (f) => body[f] !== undefined && body[f] !== null,
  );
  if (poscarField) {
    const structure = readStructure({ poscar: str(body, poscarField, true) }, MAX_INTERFACE_ATOMS).poscar;
    return {
      name: structure.comment.trim().split(/\s+/)[0] || role,
      lattice: structure.lattice,
      species: structure.sites.map((x) => x.species),
      frac: structure.sites.map((x) => x.frac),
    };
  }
  const field = jidFields.find((f) => body[f] !== undefined && body[f] !== null);
  if (!field)
    throw new HttpError(
      400,
      `Send the ${role === 'film' ? 'film' : 'substrate'} as "poscar_${role}" (POSCAR text) or "${jidFields[0]}" (a jid such as JVASP-1002).`,
    );
  const m = material(body, field);
  if (!m.structure) throw new HttpError(501, `The reference server has no structure for ${m.formula} (${m.jid}).`);
  return { name: m.formula, lattice: m.structure.lattice as Mat3, species: m.structure.species, frac: m.structure.frac };
};

const length = (body: Json, field: string, fallback: number, min: number, max: number): number => {
  const value = num(body, field) ?? fallback;
  if (value < min || value > max) throw new HttpError(400, `Field "${field}" must be between ${min} and ${max} Å.`);
  return value;
};

export const heterostructure: Handler = (body) => {
  const film = slab(body, 'film', ['film_jid', 'jid1']);
  const subs = slab(body, 'subs', ['subs_jid', 'substrate_jid', 'jid2']);
  const max = num(body, 'max_supercell', true) ?? INTERFACE_DEFAULTS.maxSupercell;
  if (max < 1 || max > 10) throw new HttpError(400, 'Field "max_supercell" must be between 1 and 10.');
  const d = INTERFACE_DEFAULTS;
  try {
    return {
      film: { name: film.name, natoms: film.species.length },
      substrate: { name: subs.name, natoms: subs.species.length },
      ...buildInterface(film, subs, {
        filmIndex: str(body, 'film_index', false) ?? d.filmIndex,
        subsIndex: str(body, 'subs_index', false) ?? d.subsIndex,
        filmThickness: length(body, 'film_thickness', d.filmThickness, 1, 100),
        subsThickness: length(body, 'subs_thickness', d.subsThickness, 1, 100),
        separation: length(body, 'separation', d.separation, 0.5, 20),
        vacuum: length(body, 'vacuum', d.vacuum, 0, 100),
        maxSupercell: max,
      }),
      method: 'reference: slabs along a cell axis, in-plane lengths matched by whole-number supercells, film strained onto the substrate',
    };
  } catch (error) {
    throw new HttpError(400, `${(error as Error).message}.`);
  }
};
