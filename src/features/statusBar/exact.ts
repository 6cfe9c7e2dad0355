/**
 * Exact counts a provider confirmed (the desktop's features/providers), for the status bar to show in place of a
 * closed model's estimate. A registration, so that the shared status bar needs no HTTP client (the web has none).
 */
import * as vscode from 'vscode';
import type { ExactSummary } from '../../core/counts/summary';
import type { ProviderInput } from '../../core/providers/providers';
import { toDisposable } from '../../platform/disposable';

export interface ExactCountSource {
  /** The confirmed count of this input for the estimate `tokenizer` stands for, if there is one. */
  lookup(tokenizer: string, input: ProviderInput): (Omit<ExactSummary, 'estimated'> & { tokens: number }) | undefined;
}

let source: ExactCountSource | undefined;
const changed = new vscode.EventEmitter<void>();

/** Fires when a source is registered or confirms a new count. */
export const onDidChangeExactCounts = changed.event;

export function provideExactCounts(provided: ExactCountSource): vscode.Disposable {
  source = provided;
  changed.fire();
  return toDisposable(() => {
    if (source === provided) source = undefined;
  });
}

/** Tells the status bar that a new count was confirmed. */
export const exactCountsChanged = (): void => changed.fire();

export const exactCountSource = (): ExactCountSource | undefined => source;
