/**
 * The extension host's Locale (core/util/locale.ts): messages through vscode.l10n.t, so l10n/bundle.l10n.<language>.json
 * translates them, and numbers in VS Code's display language.
 */
import * as vscode from 'vscode';
import { makeLocale, type Locale } from '../core/util/locale';

let shared: Locale | undefined;

export function hostLocale(): Locale {
  return (shared ??= makeLocale((message, ...args) => vscode.l10n.t(message, ...args), vscode.env.language));
}
