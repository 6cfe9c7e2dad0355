/**
 * Messages between the structure view (extension) and its page, with the guards each side runs.
 * Pure: imported by panel.ts and pages/structure/main.ts.
 */
import type { Mat3, Vec3 } from '../../core/poscar/types';
import { isArrayOf, isFiniteNumber, isInt, isRecord, isString, isVec3 } from '../../core/util/guards';

export const STRUCTURE_VIEW_TYPE = 'tokenLens.structure';
/** Above this many drawn atoms the page shrinks the repeat and says so. */
export const MAX_DRAWN_ATOMS = 30_000;
export const MAX_SITES = 100_000;

export interface StructureOptions {
  /** Copies along a, b, c (1-3 each). */
  repeat: Vec3;
  bonds: boolean;
  cell: boolean;
}

export const DEFAULT_STRUCTURE_OPTIONS: StructureOptions = { repeat: [1, 1, 1], bonds: true, cell: true };

/** Beyond this many coordinates in all, a trajectory would stall the page: refused with a message. */
export const MAX_TRAJECTORY_VALUES = 3_000_000;

export interface FrameData {
  /** Fractional coordinates, flat (the scene wraps them into the cell). */
  frac: number[];
  /** The frame's own cell, when it has one (a relax that changes the cell). */
  lattice?: Mat3;
  /** "Step 120 · −43.2130 eV" */
  caption: string;
  /** The frame's index in its file (a thinned trajectory skips some), for Convert on the frame shown. */
  source?: number;
}

export interface StructureData {
  lattice: Mat3;
  elements: string[];
  /** Fractional coordinates, flat. */
  frac: number[];
  /** One line per site for its hover label, e.g. "Si 2 (line 10)". */
  labels: string[];
  /** Summary line under the title: formula, atoms, volume, density, a b c α β γ. */
  summary: string;
  /** A run's trajectory, or a file's frames: the page plays these instead of `frac`. */
  frames?: FrameData[];
  /** The space group with the tolerance used, or why there is none, for the legend (a document's view). */
  symmetry?: string;
  /** No cell: `lattice` is only a box around the atoms (no repeat, no cell drawn). */
  molecule?: boolean;
}

/** The whole state of the view; sent on ready and after every change of the document. */
export interface ShowMessage {
  type: 'show';
  seq: number;
  /** "POSCAR — Si8" */
  title: string;
  /** The document's URI, persisted by the page so that the view comes back after a reload. */
  uri: string;
  /** The last valid structure, or null when the document never had one. */
  structure: StructureData | null;
  /** Shown above the view: why what is shown is not the document's current text, or ''. */
  note: string;
  options: StructureOptions;
}

/** Test seam (development and test builds only): ask the page for a report, or act as a user. */
export interface StructureTestMessage {
  type: 'test';
  /** Echoed in the report that answers it. */
  id: number;
  action: TestAction;
  /** hover: a drawn atom; pick: a site, whose first drawn image is picked. */
  atom?: number;
  repeat?: Vec3;
  /** setFrame: the frame to show (0-based). */
  frame?: number;
  /** Measure the share of painted pixels (a PNG of the canvas, decoded: slow, so only when a test asks). */
  paint?: boolean;
}

const TEST_ACTIONS = ['report', 'hover', 'pick', 'exportPng', 'setRepeat', 'setFrame', 'play', 'pause'] as const;
type TestAction = (typeof TEST_ACTIONS)[number];

/** The space group of a trajectory frame (frameSymmetry.ts), for the legend while that frame is shown. */
export interface FrameSymmetryMessage {
  type: 'frameSymmetry';
  /** The frame's index in its file (FrameData.source, else its place). */
  frame: number;
  text: string;
}

export type ToStructurePage = ShowMessage | StructureTestMessage | FrameSymmetryMessage;

export interface StructureReport {
  seq: number;
  /** The test message this answers. */
  request: number;
  /** Atoms and bonds the viewer holds. */
  atoms: number;
  bonds: number;
  repeat: Vec3;
  legend: string;
  /** The legend's space-group line, or ''. */
  symmetry: string;
  note: string;
  title: string;
  summary: string;
  hover: string;
  /** The distance or angle of the atoms picked (clicked), or ''. */
  measurement: string;
  theme: string;
  /** The trajectory frame shown (0-based), how many there are (0 without a trajectory), its caption, and whether it plays. */
  frame: number;
  frames: number;
  caption: string;
  playing: boolean;
  /** Where the first site's first image is drawn (Å): moves from frame to frame. */
  firstAtom: number[];
  /** Milliseconds from the message to the first frame drawn. */
  renderMs: number;
  /** The WebGL renderer, and whether the view's context antialiases (not in software: pages/structure/renderer.ts). */
  renderer: string;
  antialias: boolean;
  /** Share of canvas pixels that differ from the background (something was drawn); -1 unless the test asked (paint). */
  painted: number;
}

export type FromStructurePage =
  | { type: 'ready'; state?: unknown }
  | { type: 'options'; options: StructureOptions }
  | { type: 'exportPng'; dataUrl: string }
  | { type: 'copy'; text: string }
  /** The trajectory frame now shown (its index in the file). */
  | { type: 'frame'; index: number }
  | { type: 'error'; message: string }
  | ({ type: 'rendered' } & StructureReport);

export function isRepeat(value: unknown): value is Vec3 {
  return isVec3(value) && value.every((n) => isInt(n, 1, 3));
}

export function sanitizeStructureOptions(value: unknown): StructureOptions {
  const rec = isRecord(value) ? value : {};
  return {
    repeat: isRepeat(rec.repeat) ? [...rec.repeat] : [...DEFAULT_STRUCTURE_OPTIONS.repeat],
    bonds: typeof rec.bonds === 'boolean' ? rec.bonds : DEFAULT_STRUCTURE_OPTIONS.bonds,
    cell: typeof rec.cell === 'boolean' ? rec.cell : DEFAULT_STRUCTURE_OPTIONS.cell,
  };
}

function isOptions(value: unknown): value is StructureOptions {
  return isRecord(value) && isRepeat(value.repeat) && typeof value.bonds === 'boolean' && typeof value.cell === 'boolean';
}

const isLattice = (value: unknown): boolean => Array.isArray(value) && value.length === 3 && value.every(isVec3);

const isFrame =
  (sites: number) =>
  (value: unknown): value is FrameData =>
    isRecord(value) &&
    isArrayOf(value.frac, isFiniteNumber) &&
    value.frac.length === 3 * sites &&
    (value.lattice === undefined || isLattice(value.lattice)) &&
    isString(value.caption, 200) &&
    (value.source === undefined || isInt(value.source));

function isStructure(value: unknown): value is StructureData {
  if (!isRecord(value)) return false;
  const { lattice, elements, frac, labels, summary, frames, symmetry, molecule } = value;
  return (
    isLattice(lattice) &&
    isArrayOf(elements, (e): e is string => isString(e, 20), MAX_SITES) &&
    isArrayOf(frac, isFiniteNumber) &&
    frac.length === 3 * elements.length &&
    isArrayOf(labels, (l): l is string => isString(l, 200)) &&
    labels.length === elements.length &&
    isString(summary, 2000) &&
    (symmetry === undefined || isString(symmetry, 500)) &&
    (molecule === undefined || typeof molecule === 'boolean') &&
    (frames === undefined || isArrayOf(frames, isFrame(elements.length), Math.floor(MAX_TRAJECTORY_VALUES / Math.max(1, frac.length))))
  );
}

export function isToStructurePage(value: unknown): value is ToStructurePage {
  if (!isRecord(value)) return false;
  switch (value.type) {
    case 'show':
      return (
        isInt(value.seq) &&
        isString(value.title, 500) &&
        isString(value.uri, 10_000) &&
        isString(value.note, 5000) &&
        isOptions(value.options) &&
        (value.structure === null || isStructure(value.structure))
      );
    case 'frameSymmetry':
      return isInt(value.frame) && isString(value.text, 500);
    case 'test': // what only tests send: compiled out of release bundles with the page's driver
      return (
        TEST_HOOKS &&
        TEST_ACTIONS.includes(value.action as TestAction) &&
        isInt(value.id) &&
        (value.atom === undefined || isInt(value.atom)) &&
        (value.repeat === undefined || isRepeat(value.repeat)) &&
        (value.frame === undefined || isInt(value.frame)) &&
        (value.paint === undefined || typeof value.paint === 'boolean')
      );
    default:
      return false;
  }
}

export function isFromStructurePage(value: unknown): value is FromStructurePage {
  if (!isRecord(value)) return false;
  switch (value.type) {
    case 'ready':
      return true;
    case 'options':
      return isOptions(value.options);
    case 'exportPng':
      return isString(value.dataUrl, 50_000_000) && value.dataUrl.startsWith('data:image/png;base64,');
    case 'error':
      return isString(value.message, 5000);
    case 'copy':
      return isString(value.text, 5000);
    case 'frame':
      return isInt(value.index);
    case 'rendered': // the page's report, which only tests ask for: compiled out of release bundles
      return (
        TEST_HOOKS &&
        isInt(value.seq) &&
        isInt(value.request) &&
        isInt(value.atoms) &&
        isInt(value.bonds) &&
        isRepeat(value.repeat) &&
        ['legend', 'symmetry', 'note', 'title', 'summary', 'hover', 'theme', 'caption', 'measurement'].every((k) =>
          isString(value[k], 10_000),
        ) &&
        isInt(value.frame) &&
        isInt(value.frames) &&
        typeof value.playing === 'boolean' &&
        isArrayOf(value.firstAtom, isFiniteNumber) &&
        isFiniteNumber(value.renderMs) &&
        isFiniteNumber(value.painted)
      );
    default:
      return false;
  }
}
