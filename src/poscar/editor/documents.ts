/**
 * One parse per document version, shared by diagnostics, hover, CodeLens, symbols, folding and the
 * structure view: each asks for the same text's structure within milliseconds of an edit.
 */
import * as vscode from 'vscode';
import { parsePoscar } from '..';
import type { ParseResult } from '../types';

export const POSCAR_LANGUAGE = 'poscar';

export const POSCAR_SELECTOR: vscode.DocumentSelector = [{ language: POSCAR_LANGUAGE }];

export function isPoscar(document: vscode.TextDocument): boolean {
  return document.languageId === POSCAR_LANGUAGE;
}

const cache = new WeakMap<vscode.TextDocument, { version: number; result: ParseResult }>();

export function parsed(document: vscode.TextDocument): ParseResult {
  const hit = cache.get(document);
  if (hit && hit.version === document.version) return hit.result;
  const result = parsePoscar(document.getText());
  cache.set(document, { version: document.version, result });
  return result;
}

export function toRange(range: { line: number; start: number; end: number }): vscode.Range {
  return new vscode.Range(range.line, range.start, range.line, Math.max(range.start, range.end));
}

/** The first error, for messages that refuse to act on a broken file. */
export function firstError(result: ParseResult): ParseResult['diagnostics'][number] | undefined {
  return result.diagnostics.find((d) => d.severity === 'error');
}
