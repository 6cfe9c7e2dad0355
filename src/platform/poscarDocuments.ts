/**
 * One parse per document version, shared by diagnostics, hover, CodeLens, symbols, folding and the
 * structure view: each asks for the same text's structure within milliseconds of an edit. POSCAR's
 * parse is its registration's (core/structures/formats.ts); this names it for POSCAR's own features.
 */
import type * as vscode from 'vscode';
import { POSCAR_FORMAT } from '../core/structures/formats';
import { documentParser } from './formatDocuments';
import type { ParseResult } from '../core/poscar/types';

export const POSCAR_LANGUAGE = 'poscar';

export const POSCAR_SELECTOR: vscode.DocumentSelector = [{ language: POSCAR_LANGUAGE }];

export function isPoscar(document: vscode.TextDocument): boolean {
  return document.languageId === POSCAR_LANGUAGE;
}

export const parsed: (document: vscode.TextDocument) => ParseResult = documentParser(POSCAR_FORMAT);

/** The first error, for messages that refuse to act on a broken file. */
export function firstError(result: ParseResult): ParseResult['diagnostics'][number] | undefined {
  return result.diagnostics.find((d) => d.severity === 'error');
}
