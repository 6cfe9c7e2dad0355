import * as vscode from 'vscode';
import { createApi, type TokenLensApi } from './api';
import { StatusBarFeature } from './statusBar/feature';

export function activate(context: vscode.ExtensionContext): TokenLensApi {
  const statusBar = new StatusBarFeature();
  context.subscriptions.push(statusBar);
  // features
  return createApi(() => statusBar.state);
}

export function deactivate(): void {}
