/**
 * What the result view of an application run shows, ready to draw: a headline and facts, an
 * equation, a returned structure, sortable (and paged) tables, plots. The readers (pure, tolerant)
 * build it from the answer; the page draws any application with the same few parts.
 */
import type { PlotSpec } from '../plotSpec';
import type { Common } from '../basics';
import type { AppKind } from '../../../core/runs/run';

export interface AppRow {
  cells: string[];
  /** What each column sorts by: a number, or text. */
  keys: (number | string | null)[];
  /** GET /{app}/detail/{id} opens from this row. */
  detail?: string;
}

export interface AppTable {
  /** For test targets: "results", "peaks", "matches". */
  id: string;
  title: string;
  columns: string[];
  rows: AppRow[];
  /** Rows per page; every row on one page when not given. */
  pageSize?: number;
  /** The application whose detail endpoint a row opens. */
  detailApp?: string;
  note?: string;
}

export interface AppModel extends Common {
  kind: AppKind;
  headline: string;
  facts: string[];
  /** A balanced reaction, written with subscripts. */
  equation?: string;
  /** A structure that came back (heterostructure): opened as a POSCAR document. */
  poscar?: { text: string; note: string };
  tables: AppTable[];
  plots: PlotSpec[];
}

/** What an application reader returns: the parts read.ts adds to every model are left out. */
export type AppRead = Omit<AppModel, 'kind' | 'extra' | 'images' | 'warnings' | 'method' | 'natoms' | 'species'>;
