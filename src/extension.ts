// First: marks when the bundle began to load (see util/loadStart.ts).
import { LOAD_STARTED } from './util/loadStart';
import * as vscode from 'vscode';
import { createApi, type TokenLensApi } from './api';
import { ApplicationRuns } from './applications/runner';
import { TokenBoundariesFeature } from './boundaries/feature';
import { CountTokensTool } from './chatTool/tool';
import { diffractionDiagnostics } from './diffraction/editor/language';
import { FileCountsFeature } from './fileCounts/feature';
import { InspectorFeature } from './inspector/feature';
import { PoscarLanguageFeature } from './poscar/editor/language';
import { ServiceFeature } from './service/feature';
import { RunRecorder } from './service/runRecorder';
import { RunStore } from './service/runStore';
import { RUN_COMMANDS, StructureRuns } from './service/structureRuns';
import { StatusBarFeature } from './statusBar/feature';
import { ResultViews } from './views/results/feature';
import { isAppKind } from './views/results/run';
import { RunsTree } from './views/runs/tree';
import { SHOW_STRUCTURE, StructureFeature } from './views/structure/feature';
import { makeLocale } from './util/locale';

export function activate(context: vscode.ExtensionContext): TokenLensApi {
  const started = performance.now();
  const testMode = context.extensionMode !== vscode.ExtensionMode.Production;
  const log = vscode.window.createOutputChannel('Token Lens', { log: true });
  const locale = makeLocale((message, ...args) => vscode.l10n.t(message, ...args), vscode.env.language);
  const statusBar = new StatusBarFeature(log, locale);
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
  context.subscriptions.push(
    log, statusBar, service, recorder, runs, applications, results, structures,
    diffractionDiagnostics(),
    new InspectorFeature(context, log, locale),
    new RunsTree(store, control, results, testMode),
    new FileCountsFeature(testMode),
    new CountTokensTool(),
    new TokenBoundariesFeature(log),
    new PoscarLanguageFeature([
      { title: '$(symbol-structure) Show Structure', command: SHOW_STRUCTURE },
      { title: '$(debug-step-into) Relax', command: RUN_COMMANDS.relax },
      { title: '$(zap) Energy and Forces', command: RUN_COMMANDS.singlePoint },
      { title: '$(pulse) Molecular Dynamics', command: RUN_COMMANDS.md },
      { title: '$(graph-line) Band Structure', command: RUN_COMMANDS.tightbinding },
    ]),
  );
  // Test-only values (activation time, what the status bar shows) exist only outside production.
  const ended = performance.now();
  return createApi(testMode ? {
    activationMs: ended - started,
    loadMs: ended - LOAD_STARTED,
    statusBar: () => statusBar.state,
    comparisons: () => statusBar.comparisons.computed,
  } : undefined);
}

export function deactivate(): void {}
