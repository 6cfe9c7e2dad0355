/**
 * The one runner of the application commands: asks for the input (the application's prompts, or a
 * body given programmatically, or a JSON request document), refuses what fails its checks with a
 * message and nothing sent, then sends it through the one request policy (features/service/policy.ts), keeps
 * the run in the Runs list and shows its result view. Also opens an item of a result
 * (GET /{app}/detail/{id}) and an application's page in the Simple Browser.
 */
import * as vscode from 'vscode';
import { hostLocale } from '../platform/locale';
import { DIFFRACTION_LANGUAGE, parsedDiffraction } from '../features/diffraction/language';
import { firstError, parsed, POSCAR_LANGUAGE } from '../platform/poscarDocuments';
import { isStructureDocument } from '../platform/formatDocuments';
import { isRefusal as isRunRefusal, runPoscar } from '../core/structures/runInput';
import type { ServiceResponse } from '../core/service/response';
import type { ServiceErrorKind } from '../core/service/errors';
import type { ShownMessage } from '../features/service/messages';
import type { CallStatus, RequestPolicy } from '../features/service/policy';
import type { RunRecorder } from './recorder';
import type { RunStore } from './store';
import { Disposable } from '../platform/disposable';
import { isAppKind, runTitle, type RunRecord } from '../core/runs/run';
import { APPLICATIONS, applicationOf } from '../core/applications/applications';
import { APPS, appCatalog } from '../core/applications/catalog';
import { parseRequest, requestHeader, requestText } from '../core/applications/request';
import {
  isRefusal,
  type Application,
  type Asked,
  type Body,
  type PickPrompt,
  type Prompts,
  type Refusal,
  type TextPrompt,
} from '../core/applications/types';
import { plainText } from '../core/util/outsideText';

const EDIT_REQUEST = 'tokenLens.editApplicationRequest';
const SEND_REQUEST = 'tokenLens.sendApplicationRequest';
const OPEN_PAGE = 'tokenLens.openApplicationPage';

export interface AppRunArgs {
  /** Send this body instead of asking (checked first). */
  body?: Body;
  /** Open the result view (default true). */
  show?: boolean;
}

export interface AppRunOutcome {
  status: CallStatus | 'invalid' | 'noInput';
  kind: RunRecord['kind'];
  runId?: string;
  body?: Body;
  response?: ServiceResponse;
  errorKind?: ServiceErrorKind;
  message?: ShownMessage;
}

const HISTORY = (key: string): string => `tokenLens.history.${key}`;
const MAX_HISTORY = 20;

export class ApplicationRuns extends Disposable {
  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly service: RequestPolicy,
    private readonly store: RunStore,
    private readonly recorder: RunRecorder,
  ) {
    super();
    for (const app of APPLICATIONS) {
      this.register(vscode.commands.registerCommand(app.command, (arg?: unknown) => this.run(app, asArgs(arg))));
    }
    this.register(
      vscode.commands.registerCommand(EDIT_REQUEST, (arg?: unknown) => this.editRequest(typeof arg === 'string' ? arg : undefined)),
    );
    this.register(
      vscode.commands.registerCommand(SEND_REQUEST, (arg?: unknown) =>
        this.sendRequest(arg instanceof vscode.Uri ? arg : undefined, asArgs(arg).show),
      ),
    );
    this.register(vscode.commands.registerCommand(OPEN_PAGE, (arg?: unknown) => this.openPage(typeof arg === 'string' ? arg : undefined)));
    this.register(vscode.languages.registerCodeLensProvider({ language: 'jsonc' }, { provideCodeLenses: (d) => requestLenses(d) }));
  }

  cancel(runId: string): void {
    this.recorder.cancel(runId);
  }

  /** Sends the same request again. */
  again(runId: string): Thenable<AppRunOutcome> | undefined {
    const run = this.store.get(runId);
    const app = run && isAppKind(run.kind) ? APPLICATIONS.find((a) => a.kind === run.kind) : undefined;
    if (!run || !app) return undefined;
    const parsed = parseRequest(run.inputText);
    return 'body' in parsed ? this.send(app, { body: parsed.body, inputUri: run.inputUri }, true) : undefined;
  }

  async run(app: Application, args: AppRunArgs = {}): Promise<AppRunOutcome> {
    let asked: Asked | Refusal | undefined;
    if (args.body) {
      const problem = app.check(args.body, hostLocale());
      asked = problem ? { refuse: vscode.l10n.t('{0}: {1} Nothing was sent.', app.title(hostLocale().t), problem) } : { body: args.body };
    } else {
      asked = await app.ask(this.prompts(), hostLocale());
    }
    if (asked === undefined) return { status: 'cancelled', kind: app.kind };
    if (isRefusal(asked))
      return { status: asked.at || args.body ? 'invalid' : 'noInput', kind: app.kind, message: await this.refuse(asked) };
    return this.send(app, asked, args.show !== false);
  }

  private async refuse(refusal: Refusal): Promise<ShownMessage> {
    if (refusal.at) {
      const { uri, line, start, end } = refusal.at;
      try {
        await vscode.window.showTextDocument(vscode.Uri.parse(uri), { selection: new vscode.Range(line, start, line, end) });
      } catch {
        // The message names the line.
      }
    }
    return this.service.show('error', refusal.refuse);
  }

  private async send(app: Application, asked: Asked, show: boolean): Promise<AppRunOutcome> {
    const { body } = asked;
    const inputName = app.name(body, hostLocale().t);
    const inputUri = asked.inputUri ?? vscode.Uri.from({ scheme: 'untitled', path: `${app.kind}-request.json` }).toString();
    const outcome = await this.recorder.record(
      { kind: app.kind, inputName, inputText: JSON.stringify(body, null, 2), inputUri },
      (client, signal) => client.request('POST', app.path, body, { signal }),
      { title: runTitle({ kind: app.kind, inputName }, hostLocale().t), show, again: () => this.send(app, asked, show) },
    );
    if (outcome.status === 'ok' && asked.remember) await this.remember(asked.remember.key, asked.remember.value);
    const answer = outcome.response?.body;
    const structure = show && answer?.type === 'json' ? app.structure?.(answer.value) : undefined;
    if (structure && outcome.runId) await this.openPoscar(structure, this.recorder.viewColumn(outcome.runId));
    return { ...outcome, kind: app.kind, body };
  }

  // ---- the JSON request document ----

  /** Opens a request to edit: the last one sent for the application, else its example. */
  async editRequest(command?: string): Promise<vscode.TextEditor | undefined> {
    const app = command ? APPLICATIONS.find((a) => a.command === command || a.kind === command) : await this.pickApplication();
    if (!app) return undefined;
    const last = this.store.all.find((r) => r.kind === app.kind);
    const previous = last && parseRequest(last.inputText);
    const body = previous && 'body' in previous ? previous.body : app.example;
    const document = await vscode.workspace.openTextDocument({ language: 'jsonc', content: requestText(app, body, hostLocale().t) });
    return vscode.window.showTextDocument(document, { preview: false });
  }

  private async pickApplication(): Promise<Application | undefined> {
    const picked = await vscode.window.showQuickPick(
      APPLICATIONS.map((a) => ({ label: a.title(hostLocale().t), description: vscode.l10n.t('POST {0}', a.path), app: a })),
      {
        title: vscode.l10n.t('Token Lens: Edit Application Request'),
        placeHolder: vscode.l10n.t('The application to write a request for'),
      },
    );
    return picked?.app;
  }

  /** Checks the request document (JSON, then the application's checks) and sends it. */
  async sendRequest(uri?: vscode.Uri, show?: boolean): Promise<AppRunOutcome | { status: 'noInput'; message: ShownMessage }> {
    const document = uri ? await vscode.workspace.openTextDocument(uri) : vscode.window.activeTextEditor?.document;
    const app = document && applicationOf(document.lineAt(0).text);
    if (!document || !app) {
      return {
        status: 'noInput',
        message: this.service.show(
          'warning',
          vscode.l10n.t(
            'Open a request written by “Token Lens: Edit Application Request”: its first line names the endpoint ({0}).',
            requestHeader(APPLICATIONS[0]!),
          ),
        ),
      };
    }
    const parsed = parseRequest(document.getText(), hostLocale().t);
    if ('error' in parsed) {
      const { error } = parsed;
      const position = document.positionAt(error.offset);
      await vscode.window.showTextDocument(document, { selection: new vscode.Range(position, position) });
      return {
        status: 'invalid',
        kind: app.kind,
        message: this.service.show(
          'error',
          vscode.l10n.t(
            '{0}: the request is not valid JSON (line {1}): {2}. Nothing was sent.',
            app.title(hostLocale().t),
            position.line + 1,
            error.message,
          ),
        ),
      };
    }
    return this.run(app, { body: parsed.body, ...(show === false ? { show } : {}) });
  }

  // ---- items and pages ----

  /** GET /{app}/detail/{id}: a structure opens as a POSCAR document, anything else as JSON. */
  async openItem(app: string, id: string): Promise<{ status: string; opened?: 'poscar' | 'json'; uri?: string; message?: ShownMessage }> {
    const outcome = await this.service.call(`Opening ${id}`, (client, signal) => client.appDetail(app, id, { signal }));
    if (outcome.status !== 'ok') return { status: outcome.status, ...(outcome.message ? { message: outcome.message } : {}) };
    const body = outcome.value.body;
    const value = body.type === 'json' ? body.value : body.type === 'text' ? body.text : undefined;
    const poscar =
      typeof value === 'object' && value !== null && typeof (value as Body).poscar === 'string'
        ? ((value as Body).poscar as string)
        : undefined;
    const document = poscar
      ? await this.openPoscar(poscar)
      : await vscode.workspace.openTextDocument({ language: 'json', content: JSON.stringify(value ?? null, null, 2) });
    if (!poscar) await vscode.window.showTextDocument(document, { viewColumn: vscode.ViewColumn.One, preview: false });
    if (poscar) vscode.window.setStatusBarMessage(vscode.l10n.t('Token Lens: {0} opened as a POSCAR document', id), 4000);
    return { status: 'ok', opened: poscar ? 'poscar' : 'json', uri: document.uri.toString() };
  }

  /** A structure as a new POSCAR document in the first column, or the second when the run's view stands in the first. */
  private async openPoscar(text: string, besides?: vscode.ViewColumn): Promise<vscode.TextDocument> {
    const document = await vscode.workspace.openTextDocument({ language: POSCAR_LANGUAGE, content: text });
    const viewColumn = besides === vscode.ViewColumn.One ? vscode.ViewColumn.Two : vscode.ViewColumn.One;
    await vscode.window.showTextDocument(document, { viewColumn, preview: false, preserveFocus: besides !== undefined });
    return document;
  }

  /** GET /{app_name} in the Simple Browser. */
  async openPage(name?: string): Promise<{ status: string; url?: string }> {
    let app = name;
    if (!app) {
      const picked = await vscode.window.showQuickPick(
        appCatalog(hostLocale().t).map((a) => ({ label: a.title, description: `/${a.name}`, name: a.name })),
        { title: vscode.l10n.t('Token Lens: Open Application Page'), placeHolder: vscode.l10n.t('The application whose web page to open') },
      );
      app = picked?.name;
    }
    if (!app) return { status: 'cancelled' };
    if (!APPS.some((a) => a.name === app)) {
      this.service.show(
        'error',
        vscode.l10n.t('"{0}" is not an application of the service. Applications: {1}.', app, APPS.map((a) => a.name).join(', ')),
      );
      return { status: 'invalid' };
    }
    // A workspace's URL is confirmed, and plain http to another machine accepted, as for a request.
    const target = await this.service.target();
    if (!('url' in target)) return { status: target.status };
    const url = `${target.url}/${app}`;
    await vscode.commands.executeCommand('simpleBrowser.show', url);
    return { status: 'ok', url };
  }

  // ---- prompts ----

  private prompts(): Prompts {
    return {
      text: async (p) => askText(p),
      pick: (p) => askPick(p),
      diffraction: () => {
        const editor = [vscode.window.activeTextEditor, ...vscode.window.visibleTextEditors].find(
          (e) => e?.document.languageId === DIFFRACTION_LANGUAGE,
        );
        if (!editor) return undefined;
        const uri = editor.document.uri;
        return {
          name: uri.path.slice(uri.path.lastIndexOf('/') + 1) || 'data',
          uri: uri.toString(),
          data: parsedDiffraction(editor.document),
        };
      },
      history: (key) => this.context.globalState.get<string[]>(HISTORY(key)) ?? [],
      // Every open structure document, as the POSCAR a run would send (converted from any registered format).
      poscars: () =>
        vscode.workspace.textDocuments
          .filter((d) => isStructureDocument(d) && !d.isClosed)
          .map((d) => {
            const name = d.uri.path.slice(d.uri.path.lastIndexOf('/') + 1) || 'POSCAR';
            if (d.languageId === POSCAR_LANGUAGE) {
              const error = firstError(parsed(d));
              return { name, text: d.getText(), ...(error ? { error: error.message } : {}) };
            }
            const sent = runPoscar(d.languageId, d.getText(), name, undefined, hostLocale());
            return isRunRefusal(sent) ? { name, text: '', error: sent.refuse } : { name, text: sent.text };
          }),
    };
  }

  private remember(key: string, value: string): Thenable<void> {
    const list = [value, ...(this.context.globalState.get<string[]>(HISTORY(key)) ?? []).filter((v) => v !== value)].slice(0, MAX_HISTORY);
    return this.context.globalState.update(HISTORY(key), list);
  }
}

function askText(p: TextPrompt): Thenable<string | undefined> {
  return vscode.window.showInputBox({
    title: p.title,
    prompt: p.prompt,
    value: p.value,
    placeHolder: p.placeHolder,
    ignoreFocusOut: true,
    validateInput: (v) => p.check(v),
  });
}

/** A quick pick; with `typed`, what the user types is offered as the first item and accepted when it passes the check. */
function askPick(p: PickPrompt): Promise<string | undefined> {
  type Item = vscode.QuickPickItem & { value?: string };
  const pick = vscode.window.createQuickPick<Item>();
  Object.assign(pick, { title: p.title, placeholder: p.placeHolder, ignoreFocusOut: true, matchOnDescription: true });
  // Labels may be file names and descriptions a file's problems: shown as text ($(icon) syntax broken), answered as given.
  const items: Item[] = p.items.map((i) => ({
    ...i,
    label: plainText(i.label),
    ...(i.description === undefined ? {} : { description: plainText(i.description) }),
    value: i.label,
  }));
  pick.items = items;
  return new Promise((resolve) => {
    let typed: Item | undefined;
    pick.onDidChangeValue((value) => {
      if (!p.typed) return;
      const text = value.trim();
      const problem = text ? p.typed(text) : undefined;
      typed =
        text && !items.some((i) => i.value === text)
          ? { label: plainText(text), description: problem ? `$(error) ${problem}` : vscode.l10n.t('use what you typed'), alwaysShow: true }
          : undefined;
      pick.items = typed ? [typed, ...items] : items;
    });
    pick.onDidAccept(() => {
      // What was typed in full wins over whichever item the filter made active; typed text that matches
      // no item is taken when it passes the check (even before the item offering it has arrived).
      const value = pick.value.trim();
      const chosen = items.find((i) => i.value === value) ?? pick.selectedItems[0] ?? pick.activeItems[0];
      let label = chosen && chosen !== typed ? (chosen.value ?? chosen.label) : undefined;
      if (label === undefined && p.typed && value && !p.typed(value)) label = value;
      if (label === undefined) return; // nothing valid yet: stay open
      resolve(label);
      pick.hide();
    });
    pick.onDidHide(() => {
      resolve(undefined);
      pick.dispose();
    });
    pick.show();
  });
}

function requestLenses(document: vscode.TextDocument): vscode.CodeLens[] {
  const app = document.lineCount > 0 ? applicationOf(document.lineAt(0).text) : undefined;
  return app
    ? [
        new vscode.CodeLens(new vscode.Range(0, 0, 0, 0), {
          title: vscode.l10n.t('$(send) Send to {0}', app.path),
          command: SEND_REQUEST,
          arguments: [document.uri],
        }),
      ]
    : [];
}

function asArgs(arg: unknown): AppRunArgs {
  if (typeof arg !== 'object' || arg === null || arg instanceof vscode.Uri) return {};
  const value = arg as Record<string, unknown>;
  return {
    ...(typeof value.body === 'object' && value.body !== null && !Array.isArray(value.body) ? { body: value.body as Body } : {}),
    ...(typeof value.show === 'boolean' ? { show: value.show } : {}),
  };
}
