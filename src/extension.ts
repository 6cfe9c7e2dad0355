import * as vscode from 'vscode';
import { createApi, type TokenLensApi } from './api';
import { StatusBarFeature } from './statusBar/feature';
import { ServiceFeature } from './service/feature';
import { InspectorFeature } from './inspector/feature';

export function activate(context: vscode.ExtensionContext): TokenLensApi {
  const started = performance.now();
  const statusBar = new StatusBarFeature();
  context.subscriptions.push(statusBar);
  context.subscriptions.push(new ServiceFeature(context));
  context.subscriptions.push(new InspectorFeature(context));
  // features
  return createApi(performance.now() - started, () => statusBar.state);
}

export function deactivate(): void {}
