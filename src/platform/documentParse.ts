/**
 * What the editors of a language (POSCAR, diffraction data) share: one parse per document version,
 * whoever asks (diagnostics, hover, CodeLens, commands), and a one-line range to place a problem on.
 */
import * as vscode from 'vscode';

/** Wraps a parser so that each document version is parsed once. */
export function perVersion<T>(parse: (text: string) => T): (document: vscode.TextDocument) => T {
  const cache = new WeakMap<vscode.TextDocument, { version: number; value: T }>();
  return (document) => {
    const hit = cache.get(document);
    if (hit && hit.version === document.version) return hit.value;
    const value = parse(document.getText());
    cache.set(document, { version: document.version, value });
    return value;
  };
}

/** A parser problem's range on one line (an empty or inverted one becomes empty at its start). */
export function problemRange(range: { line: number; start: number; end: number }): vscode.Range {
  return new vscode.Range(range.line, range.start, range.line, Math.max(range.start, range.end));
}
