/**
 * The extension's notifications. Every message goes through `plainText` (util/outsideText.ts), so a
 * service's `detail`, a tokenizer name it echoed or a file name can never become a link or a command;
 * the linter allows vscode.window.show*Message nowhere else.
 */
import * as vscode from 'vscode';
import { plainText } from '../core/util/outsideText';

export const notify = {
  error: (message: string, ...actions: string[]): Thenable<string | undefined> =>
    vscode.window.showErrorMessage(plainText(message), ...actions),
  warning: (message: string, ...actions: string[]): Thenable<string | undefined> =>
    vscode.window.showWarningMessage(plainText(message), ...actions),
  info: (message: string, ...actions: string[]): Thenable<string | undefined> =>
    vscode.window.showInformationMessage(plainText(message), ...actions),
};
