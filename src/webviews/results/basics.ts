/** The parts every result model is made of, apart from the models (model.ts) so that the plots' types can use them. */

/** A number per step; null where the service sent something that is not one. */
export type Series = (number | null)[];

export interface ResultImage {
  /** data:image/png;base64,… */
  dataUrl: string;
  /** Where it came from: a field name, a header, or "answer" for a whole image answer. */
  source: string;
}

/** What every kind's model has: the method, the atoms, and what the view did not place. */
export interface Common {
  /** How the service computed it, in its words. */
  method?: string;
  /** Atoms and element symbols as the answer states them. */
  natoms?: number;
  species?: string[];
  /** Every field the view does not show, as the service sent it. */
  extra: Record<string, unknown>;
  images: ResultImage[];
  warnings: string[];
}

export interface BandTick {
  distance: number;
  /** "Γ", "X", "X|U" */
  label: string;
}
