/**
 * Documents of the registered materials formats (core/structures/formats.ts), parsed once per document
 * version whoever asks: diagnostics, hover, CodeLens, symbols, the 3D view, conversions and runs.
 */
import * as vscode from 'vscode';
import { FORMATS, formatEntry, type FormatEntry } from '../core/structures/formats';
import type { StructureFile } from '../core/structures/types';
import { perVersion } from './documentParse';
import { hostLocale } from './locale';

const parsers = new Map<FormatEntry, (document: vscode.TextDocument) => unknown>(
  FORMATS.map((entry) => [entry, perVersion((text) => entry.parse(text, hostLocale()))]),
);

/** The one parse of a document's version by a format's reader (whatever the document's language). */
export function documentParser<T>(entry: FormatEntry<T>): (document: vscode.TextDocument) => T {
  return parsers.get(entry) as (document: vscode.TextDocument) => T;
}

/** The registration of a document's language, if it is a materials format. */
export function formatOf(document: vscode.TextDocument): FormatEntry | undefined {
  return formatEntry(document.languageId);
}

/** Whether the document is in a structure format (POSCAR, CIF, XYZ, XDATCAR, OUTCAR, vasprun.xml). */
export function isStructureDocument(document: vscode.TextDocument): boolean {
  return !!formatOf(document)?.structure;
}

/** The shared model of a structure document's current version; undefined for any other document. */
export function structureOf(document: vscode.TextDocument): StructureFile | undefined {
  const entry = formatOf(document);
  return entry?.structure ? entry.structure(documentParser(entry)(document), hostLocale()) : undefined;
}

/** Selectors of every structure language. */
export function structureSelector(filter: (entry: FormatEntry) => boolean = () => true): vscode.DocumentSelector {
  return FORMATS.filter((f) => f.structure && filter(f)).map((f) => ({ language: f.language.languageId }));
}
