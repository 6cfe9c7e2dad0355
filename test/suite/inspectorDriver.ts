/**
 * Drives the token inspector from the extension host, through its test command: what the panel and
 * its webview report, raw messages both ways, and the scale run shared by the test and the benchmark.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { InspectorOptions, RenderedReport } from '../../src/webviews/inspector/protocol';
import { inspectorText } from '../bench/textgen';
import { closeAllEditors, openDocument, waitFor } from './util';

export const TEST = 'tokenLens.inspector.test';

export interface InspectorState {
  report: RenderedReport | undefined;
  state:
    | {
        seq: number;
        scope: 'document' | 'selection';
        base: number;
        length: number;
        uri: string;
        tokenizer: string;
        ids: number[];
        compare: string | null;
        compareIds: number[] | null;
      }
    | undefined;
  options: InspectorOptions;
}

export const state = async (): Promise<InspectorState> => await vscode.commands.executeCommand<InspectorState>(TEST, 'state');
export const post = (message: unknown) => vscode.commands.executeCommand(TEST, 'post', message);
export const receive = (message: unknown) => vscode.commands.executeCommand(TEST, 'receive', message);
export const open = () => vscode.commands.executeCommand<RenderedReport | undefined>('tokenLens.openInspector');
/** Opens the inspector; resolves with the first report of a render on screen (a first paint's) and when it came, and the settled report. */
export async function openFirstPaint(): Promise<{ first: RenderedReport; firstMs: number; settled: Thenable<RenderedReport | undefined> }> {
  const started = Date.now();
  const settled = open();
  await waitFor(async () => vscode.commands.executeCommand<boolean>(TEST, 'isOpen'), 10_000, 'the inspector to open', 10);
  const first = await vscode.commands.executeCommand<RenderedReport | undefined>(TEST, 'painted');
  assert.ok(first && first.segmentCount > 0, 'the inspector rendered');
  return { first, firstMs: Date.now() - started, settled };
}

/** Waits until the panel has settled on a report that satisfies `check`; returns the state. */
export async function until(check: (s: InspectorState) => unknown, what: string, timeoutMs = 10_000): Promise<InspectorState> {
  let last: InspectorState | undefined;
  await waitFor(
    async () => {
      last = await state();
      return last.report && check(last);
    },
    timeoutMs,
    () =>
      `${what}; last report: ${JSON.stringify({ ...last?.report, segments: last?.report?.segments.slice(0, 12), domText: last?.report?.domText.slice(0, 200) })}; ${editorsNow()}`,
    100,
  );
  return last!;
}

/** The editors and untitled documents of the moment, for failure messages. */
function editorsNow(): string {
  const short = (d: vscode.TextDocument) =>
    `${d.uri.toString()}${d.isClosed ? ' (closed)' : ''} ${JSON.stringify(d.getText().slice(0, 16))}`;
  const active = vscode.window.activeTextEditor;
  return (
    `active editor: ${active ? short(active.document) : 'none'}; visible: ${vscode.window.visibleTextEditors.map((e) => short(e.document)).join(', ')}; ` +
    `untitled documents: ${vscode.workspace.textDocuments
      .filter((d) => d.uri.scheme === 'untitled')
      .map(short)
      .join(', ')}`
  );
}

/** Opens the inspector and waits until it shows `text` (the editor just opened), returning the report. */
export async function openOn(text: string): Promise<RenderedReport> {
  await open();
  const s = await until((st) => st.report!.segments.join('') === text, `the inspector to show ${JSON.stringify(text.slice(0, 40))}`);
  return s.report!;
}

export function inspectorTab(): vscode.Tab | undefined {
  for (const group of vscode.window.tabGroups.all) {
    for (const tab of group.tabs) {
      if (tab.input instanceof vscode.TabInputWebview && tab.input.viewType.endsWith('tokenLens.inspector')) return tab;
    }
  }
  return undefined;
}

export interface ScaleRun {
  size: number;
  report: RenderedReport;
  /** The first render the webview reported (the visible part first, for a big document) and when, from running the command. */
  first: RenderedReport;
  firstPaintMs: number;
  /** From running the command to the webview's report of the finished render. */
  openMs: number;
  /** An edit at the top, re-rendered. */
  edited: RenderedReport;
  editMs: number;
  scroll: NonNullable<RenderedReport['scroll']>;
}

/**
 * The inspector on `size` characters of the sample: open, edit once, scroll 120 frames; closes
 * everything after. `firstPaint: false` (the benchmark's) takes the path from before the first paint.
 */
export async function scaleRun(size: number, firstPaint = true): Promise<ScaleRun> {
  await openDocument(inspectorText(size));
  await vscode.commands.executeCommand(TEST, 'firstPaint', firstPaint);
  const started = Date.now();
  const { first, firstMs: firstPaintMs, settled } = await openFirstPaint();
  const report = (await settled)!;
  const openMs = Date.now() - started;
  await vscode.commands.executeCommand(TEST, 'firstPaint', true);
  const editor = vscode.window.activeTextEditor!;
  const editStarted = Date.now();
  await editor.edit((edit) => edit.insert(new vscode.Position(0, 0), 'x'));
  const edited = (await until((s) => s.report!.nChars === report.nChars + 1, `${size}: the edit`, 30_000)).report!;
  const editMs = Date.now() - editStarted;
  // Scroll through it: the DOM is rebuilt only when the view leaves the rows already built.
  await post({ type: 'test', action: 'scroll', segment: 120 });
  const scroll = (await until((s) => s.report!.scroll !== undefined, `${size}: the scroll run`, 30_000)).report!.scroll!;
  await vscode.commands.executeCommand(TEST, 'close');
  await closeAllEditors();
  return { size, report, first, firstPaintMs, openMs, edited, editMs, scroll };
}

export function formatScaleRun(r: ScaleRun): string {
  const n = (x: number) => x.toLocaleString('en-US');
  return (
    `${n(r.size)} chars: ${n(r.report.nTokens)} tokens, webview render ${r.report.renderMs.toFixed(1)} ms, first paint ${r.firstPaintMs} ms (${r.first.sinceReadyMs} ms after the page was ready), open-to-rendered ${r.openMs} ms, ` +
    `edit-to-rendered ${r.editMs} ms (render ${r.edited.renderMs.toFixed(1)} ms), DOM rows ${r.report.domRows}/${r.report.rows}, ` +
    `scroll ${r.scroll.frames} frames: mean ${r.scroll.meanMs} ms, p95 ${r.scroll.p95Ms} ms, slowest ${r.scroll.maxMs} ms, DOM rebuilt ${r.scroll.rebuilt}x`
  );
}
