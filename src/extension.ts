import * as vscode from 'vscode';
import { createApi, type TokenLensApi } from './api';
import { InspectorFeature } from './inspector/feature';
import { ServiceFeature } from './service/feature';
import { StatusBarFeature } from './statusBar/feature';

export function activate(context: vscode.ExtensionContext): TokenLensApi {
  const started = performance.now();
  const statusBar = new StatusBarFeature();
  context.subscriptions.push(statusBar, new InspectorFeature(context), new ServiceFeature(context));
  return createApi(performance.now() - started, () => statusBar.state);
}

export function deactivate(): void {}
