// First: marks when the bundle began to load (see util/loadStart.ts).
import './core/util/loadStart';
import * as vscode from 'vscode';
import type { TokenLensApi } from './api';
import { ApplicationRuns } from './runs/applicationRunner';
import { diffractionDiagnostics } from './features/diffraction/language';
import { activateWith, type Wiring } from './wiring';
import { PoscarLanguageFeature } from './features/poscar/language';
import { ServiceFeature } from './features/service/feature';
import { RunRecorder } from './runs/recorder';
import { RunStore } from './runs/store';
import { RUN_COMMANDS, StructureRuns } from './runs/structureRunner';
import { ResultViews } from './webviews/results/feature';
import { isAppKind } from './core/runs/run';
import { RunsTree } from './runs/tree';
import { SHOW_STRUCTURE, StructureFeature } from './webviews/structure/feature';

export function activate(context: vscode.ExtensionContext): TokenLensApi {
  return activateWith(context, desktopFeatures);
}

/** The service, its runs and views, and the POSCAR and diffraction editors: the desktop host runs them all. */
function desktopFeatures({ context, log, testMode, start }: Wiring): void {
  start('the materials service', () => serviceFeatures(context, log, testMode));
  // What the host can do, not what the UI is: code-server and Codespaces are browser UIs with this Node host.
  void vscode.commands.executeCommand('setContext', 'tokenLens.serviceAvailable', true);
  start('diffraction-data problems', () => diffractionDiagnostics(log));
  start('the POSCAR editor', () => new PoscarLanguageFeature(log, [
    { title: '$(symbol-structure) Show Structure', command: SHOW_STRUCTURE },
    { title: '$(debug-step-into) Relax', command: RUN_COMMANDS.relax },
    { title: '$(zap) Energy and Forces', command: RUN_COMMANDS.singlePoint },
    { title: '$(pulse) Molecular Dynamics', command: RUN_COMMANDS.md },
    { title: '$(graph-line) Band Structure', command: RUN_COMMANDS.tightbinding },
  ]));
}

/** The service, its runs and their views, which depend on each other: they start together. */
function serviceFeatures(context: vscode.ExtensionContext, log: vscode.LogOutputChannel, testMode: boolean): vscode.Disposable[] {
  const service = new ServiceFeature(context, log);
  const store = new RunStore(context.workspaceState);
  const recorder = new RunRecorder(service, store);
  const runs = new StructureRuns(service, store, recorder);
  const applications = new ApplicationRuns(context, service, store, recorder);
  // Each run goes back to whoever runs its kind.
  const control = {
    cancel: (id: string) => (isAppKind(store.get(id)?.kind ?? '') ? applications : runs).cancel(id),
    again: (id: string) => (isAppKind(store.get(id)?.kind ?? '') ? applications : runs).again(id),
  };
  const structures = new StructureFeature(context, log, (id) => store.get(id));
  const results = new ResultViews(context, log, {
    lookup: (id) => store.get(id),
    onCancel: control.cancel,
    onRetry: (id) => void control.again(id),
    onShow3d: (run) => void structures.showRun(run),
    onDetail: (app, id) => void applications.openItem(app, id),
  });
  recorder.attach(results);
  return [service, recorder, runs, applications, results, structures, new RunsTree(store, control, results, testMode)];
}

export function deactivate(): void {}
