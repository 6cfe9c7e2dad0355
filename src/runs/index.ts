/**
 * The materials side in one piece: the service, the run list and its two runners (structure runs and
 * applications), their result and 3D views, and the Runs tree. Each run goes back to whoever runs its kind.
 */
import * as vscode from 'vscode';
import { isAppKind } from '../core/runs/run';
import { ServiceFeature } from '../features/service/feature';
import { ResultViews } from '../webviews/results/feature';
import { StructureFeature } from '../webviews/structure/feature';
import { ApplicationRuns } from './applicationRunner';
import { RunRecorder } from './recorder';
import { RunStore } from './store';
import { hostLocale } from '../platform/locale';
import { StructureRuns } from './structureRunner';
import { readRelaxationSummary, StructureFileCommands } from './structureFiles';
import { isFileSummary } from '../webviews/results/relaxationFile';
import { RunsTree, type RunControl } from './tree';

/** Everything to dispose, the result views (which bring back every result page after a reload), and the Runs list's data, which the window's Runs view (materialsLoader.ts) shows. */
export function materialsRuns(
  context: vscode.ExtensionContext,
  log: vscode.LogOutputChannel,
  testMode: boolean,
): { disposables: vscode.Disposable[]; tree: RunsTree; results: ResultViews } {
  const service = new ServiceFeature(context, log, testMode);
  const requests = service.requests;
  const store = new RunStore(context.workspaceState, hostLocale().t);
  // The views and the runners need each other; the views reach the runners through this, once both exist.
  const control: RunControl = {
    cancel: (id) => runnerOf(id).cancel(id),
    again: (id) => runnerOf(id).again(id),
    againWithOptions: (id) => runs.againWithOptions(id),
  };
  const structures = new StructureFeature(context, log, (id) => store.get(id), testMode);
  const results = new ResultViews(
    context,
    log,
    {
      lookup: (id) => store.get(id),
      reread: (uri) => readRelaxationSummary(vscode.Uri.parse(uri)),
      onCancel: control.cancel,
      onRetry: (id) => void control.again(id),
      // A file's relaxation summary shows the file's own 3D view, its ionic steps played.
      onShow3d: (run) => void (isFileSummary(run) ? structures.show(vscode.Uri.parse(run.inputUri)) : structures.showRun(run)),
      onDetail: (app, id) => void applications.openItem(app, id),
    },
    testMode,
  );
  const recorder = new RunRecorder(requests, store, results);
  const shownFrame = (uri: vscode.Uri) => structures.viewOf(uri)?.shownFrame;
  const runs = new StructureRuns(requests, store, recorder, context.workspaceState, shownFrame);
  const files = new StructureFileCommands(results, shownFrame, (id) => store.get(id));
  const applications = new ApplicationRuns(context, requests, store, recorder);
  const runnerOf = (id: string) => (isAppKind(store.get(id)?.kind ?? '') ? applications : runs);
  const tree = new RunsTree(store, control, results, testMode);
  return { disposables: [service, recorder, runs, files, applications, results, structures, tree], tree, results };
}
