/** What the run suites share: a reference server to talk to, a command's outcome, the Runs list's entries, and a result view's report. */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { createServer, type ReferenceServer } from '../../src/server/http/app';
import type { ResultReport } from '../../src/webviews/results/protocol';
import { activateExtension, waitFor } from './util';

/** Activates Token Lens and points it at a new reference server (faults on) with this key. */
export async function useReferenceServer(key: string): Promise<ReferenceServer> {
  await activateExtension();
  const server = createServer({ apiKey: key, ratePerMinute: 10_000, faults: true });
  assert.equal((await vscode.commands.executeCommand<{ status: string }>('tokenLens.setServiceUrl', await server.listen(0))).status, 'ok');
  assert.equal((await vscode.commands.executeCommand<{ status: string }>('tokenLens.setApiKey', key)).status, 'ok');
  return server;
}

export interface Outcome {
  status: string;
  kind: string;
  runId?: string;
  body?: Record<string, unknown>;
  response?: { status: number; body: { type: string; value?: Record<string, any> } };
  errorKind?: string;
  message?: { severity: string; text: string; actions: string[] };
}

export interface Item {
  id: string;
  label: string;
  description: string;
  contextValue: string;
}

export const items = async (): Promise<Item[]> => await vscode.commands.executeCommand<Item[]>('tokenLens.runs.test', 'items');

export const resultReport = (runId: string, action = 'report', extra: object = {}): Thenable<ResultReport | undefined> =>
  vscode.commands.executeCommand<ResultReport | undefined>('tokenLens.results.test', action, { runId, ...extra });

/** The window's tabs, group by group, the active one starred: what a view that never reports was doing. */
const tabsNow = (): string =>
  vscode.window.tabGroups.all
    .map(
      (group) =>
        `column ${group.viewColumn}: ${group.tabs.map((tab) => (tab.isActive ? `*${tab.label}` : tab.label)).join(', ') || 'no tabs'}`,
    )
    .join(' | ');

export async function reportWhere(runId: string, check: (r: ResultReport) => boolean, what: string): Promise<ResultReport> {
  let last: ResultReport | undefined;
  await waitFor(
    async () => (last = await resultReport(runId)) && check(last),
    15_000,
    () => `${what}; last report: ${JSON.stringify(last)}; tabs: ${tabsNow()}`,
    150,
  );
  return last!;
}
