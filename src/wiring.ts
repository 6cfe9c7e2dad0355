/**
 * The one place that wires the extension, for both hosts: the token features (status bar and
 * context-window gauge, inspector, token boundaries, files counted, the chat tool) run everywhere;
 * the host's own entry adds what only it can run (extension.ts: the service and its views;
 * web/extension.ts: a message for those where VS Code for the Web cannot run them).
 */
import { LOAD_STARTED } from './core/util/loadStart';
import * as vscode from 'vscode';
import { createApi, type TokenLensApi } from './api';
import { TokenBoundariesFeature } from './features/boundaries/feature';
import { CountTokensTool } from './features/chatTool/tool';
import { FileCountsFeature } from './features/fileCounts/feature';
import { InspectorFeature } from './webviews/inspector/feature';
import { DatasetViewFeature } from './webviews/dataset/feature';
import { StatusBarFeature } from './features/statusBar/feature';
import { ChatModels, type ChatHost } from './features/chat/chatModels';
import { ConversationCounts } from './features/chat/conversationCounts';
import { DatasetFeature, datasetWindow } from './features/chat/dataset';
import type { Locale } from './core/util/locale';
import { hostLocale } from './platform/locale';

export interface Wiring {
  context: vscode.ExtensionContext;
  log: vscode.LogOutputChannel;
  locale: Locale;
  testMode: boolean;
  /** Starts a feature and registers what it returns; one that throws is logged and the others go on. */
  start(name: string, make: () => vscode.Disposable | readonly vscode.Disposable[]): void;
}

/** A feature's start, contained: activate() never fails because one feature (or a file it read) did. */
function starter(context: vscode.ExtensionContext, log: vscode.LogOutputChannel): Wiring['start'] {
  return (name, make) => {
    try {
      const made = make();
      context.subscriptions.push(...(Array.isArray(made) ? made : [made]));
    } catch (error) {
      log.error(`Token Lens could not start ${name}; the other features work.`, error);
    }
  };
}

/** What a host's own features tell the test API. */
export interface HostHooks {
  materialsStartedBy?(): string | undefined;
  /** When the entry module's body ran: every module imported before it is evaluated by then. */
  evaluatedAt?: number;
}

/**
 * Wires the shared features, lets `addHostFeatures` add the host's own, and returns the API.
 * `beforeCounting` runs first, before anything counts: the desktop registers its model tokenizers
 * there, so a tokenizer setting naming one is known to the status bar's first count. `chatHost` says where chat
 * templates render and how a model's chat files are read (the desktop's worker and disk; none on the web).
 */
export function activateWith(
  context: vscode.ExtensionContext,
  addHostFeatures: (wiring: Wiring) => HostHooks | void,
  beforeCounting?: (wiring: Wiring) => vscode.Disposable,
  chatHost?: ChatHost,
): TokenLensApi {
  const started = performance.now();
  // The one place that decides: test builds (TEST_HOOKS) outside production mode. Release bundles have no hooks.
  const testMode = TEST_HOOKS && context.extensionMode !== vscode.ExtensionMode.Production;
  const log = vscode.window.createOutputChannel('Token Lens', { log: true });
  const locale = hostLocale();
  context.subscriptions.push(log);
  const start = starter(context, log);
  if (beforeCounting) start('model tokenizers', () => beforeCounting({ context, log, locale, testMode, start }));
  const conversations = new ConversationCounts(new ChatModels(chatHost, locale));
  const statusBar = new StatusBarFeature(log, locale, conversations);
  context.subscriptions.push(conversations.models, conversations, statusBar);
  start('conversation datasets', () => new DatasetFeature(conversations, log, locale));
  start('the token inspector', () => new InspectorFeature(context, log, locale, testMode));
  const counter = {
    lines: (text: string, name: string, signal: AbortSignal) => conversations.lines(text, name, signal),
    format: async (name: string) => (await conversations.models.model(name)).format.label,
    window: datasetWindow,
  };
  start('the dataset overview', () => new DatasetViewFeature(context, { counter, log, locale, testMode }));
  start('Count Tokens in Files', () => new FileCountsFeature(testMode));
  start('the chat tool', () => new CountTokensTool(conversations.models));
  start('token boundaries', () => new TokenBoundariesFeature(log));
  const hostHooks = addHostFeatures({ context, log, locale, testMode, start }) ?? {};
  // Test-only values (activation time, what the status bar shows) exist only outside production.
  const ended = performance.now();
  return createApi(
    conversations.models,
    testMode
      ? {
          activationMs: ended - started,
          loadMs: ended - LOAD_STARTED,
          ...(hostHooks.evaluatedAt === undefined
            ? {}
            : { evaluationMs: hostHooks.evaluatedAt - LOAD_STARTED, hostWaitMs: started - hostHooks.evaluatedAt }),
          statusBar: () => statusBar.state,
          comparisons: () => statusBar.comparisons.computed,
          ...(hostHooks.materialsStartedBy ? { materialsStartedBy: hostHooks.materialsStartedBy } : {}),
        }
      : undefined,
  );
}
