/**
 * Relax, single point, MD and band structure from the open structure (POSCAR, or any registered format
 * converted to POSCAR: the POSCAR sent is the run's input): each command reads the document (unsaved edits
 * included; a file that is not open is read from disk), refuses a file with errors (or partial occupancy)
 * and takes the user to the first one, then sends it through the service feature's one request policy.
 * Every run is kept in the run list and has a result view; several may run at once.
 */
import * as vscode from 'vscode';
import { config } from '../platform/config';
import { hostLocale } from '../platform/locale';
import { parsePoscar } from '../core/poscar/index';
import { POSCAR_LANGUAGE } from '../platform/poscarDocuments';
import { formatEntry } from '../core/structures/formats';
import { detectFormat } from '../core/structures/languages';
import { isRefusal, runPoscar } from '../core/structures/runInput';
import type { SourceRange } from '../core/structures/types';
import { isAppKind, kindLabel, type StructureKind } from '../core/runs/run';
import { Disposable } from '../platform/disposable';
import { plural } from '../core/util/locale';
import {
  defaultValues,
  firstProblem,
  isParameterKind,
  PARAMETER_KINDS,
  requestFields,
  reviveValues,
  type ParameterKind,
  type ParameterValues,
} from '../core/runs/parameters';
import { askParameters } from './optionsForm';
import type { ServiceClient } from '../features/service/client';
import type { ServiceResponse } from '../core/service/response';
import type { ServiceErrorKind } from '../core/service/errors';
import type { RunRecorder } from './recorder';
import type { RunStore } from './store';
import type { ShownMessage } from '../features/service/messages';
import type { CallStatus, RequestPolicy } from '../features/service/policy';

export const RUN_COMMANDS: Record<StructureKind, string> = {
  relax: 'tokenLens.relax',
  singlePoint: 'tokenLens.singlePoint',
  md: 'tokenLens.md',
  tightbinding: 'tokenLens.tightbinding',
};

/** Run with Options…: the quick form of the parameters, then the run. */
export const OPTIONS_COMMANDS: Record<ParameterKind, string> = {
  relax: 'tokenLens.relaxWithOptions',
  md: 'tokenLens.mdWithOptions',
};

export interface StructureRunArgs {
  uri?: vscode.Uri | string;
  /** Relax and MD: the parameter values to use instead of the settings' (core/runs/parameters.ts). */
  params?: ParameterValues;
  /** POSCAR text to send instead of a document's. */
  text?: string;
  kpathDensity?: number;
  /** Open the result view (default true). */
  show?: boolean;
}

export interface StructureRunOutcome {
  status: CallStatus | 'invalid' | 'noInput';
  kind: StructureKind;
  runId?: string;
  response?: ServiceResponse;
  errorKind?: ServiceErrorKind;
  message?: ShownMessage;
}

interface Input {
  uri: vscode.Uri;
  name: string;
  text: string;
}

export class StructureRuns extends Disposable {
  constructor(
    private readonly service: RequestPolicy,
    private readonly store: RunStore,
    private readonly recorder: RunRecorder,
    /** Where the options form remembers its values: the workspace's state. */
    private readonly memory: vscode.Memento,
    /** The frame a document's 3D view shows, if one plays its frames: what a run of a trajectory sends. */
    private readonly shownFrame: (uri: vscode.Uri) => number | undefined = () => undefined,
  ) {
    super();
    for (const kind of Object.keys(RUN_COMMANDS) as StructureKind[]) {
      this.register(vscode.commands.registerCommand(RUN_COMMANDS[kind], (arg?: unknown) => this.run(kind, asArgs(arg))));
    }
    for (const kind of PARAMETER_KINDS) {
      this.register(vscode.commands.registerCommand(OPTIONS_COMMANDS[kind], (arg?: unknown) => this.runWithOptions(kind, asArgs(arg))));
    }
  }

  cancel(runId: string): void {
    this.recorder.cancel(runId);
  }

  /** Runs the same kind on the same input again, as sent then (parameters too; a run recorded without them: the settings'). */
  again(runId: string): Thenable<StructureRunOutcome> | undefined {
    const run = this.store.get(runId);
    if (!run || isAppKind(run.kind)) return undefined;
    return this.run(run.kind, { uri: run.inputUri, text: run.inputText, ...(run.params ? { params: run.params } : {}) });
  }

  /** Run Again with Options…: the form, starting from what the run sent, then the same input again. */
  againWithOptions(runId: string): Thenable<StructureRunOutcome> | undefined {
    const run = this.store.get(runId);
    if (!run || !isParameterKind(run.kind)) return undefined;
    const start = run.params ? reviveValues(run.kind, run.params, defaultValues(run.kind)) : undefined;
    return this.runWithOptions(run.kind, { uri: run.inputUri, text: run.inputText }, start);
  }

  /** The quick form, then the run with its values; nothing is sent when the form is closed. */
  async runWithOptions(kind: ParameterKind, args: StructureRunArgs = {}, start?: ParameterValues): Promise<StructureRunOutcome> {
    const refused = this.service.refuseInRestrictedMode();
    if (refused) return { status: 'untrusted', kind, message: refused }; // before the form: nothing to fill in for nothing
    const input = await this.poscarInput(args);
    if (!input || 'refused' in input) return this.run(kind, args); // says what to open, or why not
    const title =
      kind === 'relax'
        ? vscode.l10n.t('Relax with Options: {0}', input.name)
        : vscode.l10n.t('Molecular Dynamics with Options: {0}', input.name);
    const params = await askParameters(this.memory, kind, title, start);
    if (!params) return { status: 'cancelled', kind };
    return this.run(kind, { ...args, uri: input.uri, text: input.text, params });
  }

  async run(kind: StructureKind, args: StructureRunArgs = {}): Promise<StructureRunOutcome> {
    const input = await this.poscarInput(args);
    if (!input) {
      const message = this.service.show(
        'warning',
        vscode.l10n.t(
          'Open a structure file (POSCAR, CIF, XYZ, XDATCAR, OUTCAR or vasprun.xml) to run {0}: Token Lens sends the structure in the active editor (or the file chosen in the Explorer).',
          kindLabel(kind, hostLocale().t).toLocaleLowerCase(vscode.env.language),
        ),
      );
      return { status: 'noInput', kind, message };
    }
    if ('refused' in input) return { status: 'invalid', kind, message: input.refused };
    const invalid = await this.refuseErrors(input);
    if (invalid) return { status: 'invalid', kind, message: invalid };
    const density = kind === 'tightbinding' ? (args.kpathDensity ?? config.kpathDensity) : undefined;
    if (density !== undefined && !(Number.isInteger(density) && density >= 1 && density <= 1000)) {
      const message = this.service.show(
        'error',
        vscode.l10n.t(
          'The k-path density must be a whole number from 1 to 1000 (the setting tokenLens.tightbinding.kpathDensity is {0}). Nothing was sent.',
          JSON.stringify(density),
        ),
      );
      return { status: 'invalid', kind, message };
    }
    let fields: ParameterValues | undefined;
    if (isParameterKind(kind)) {
      const values = args.params ?? config.parameters(kind);
      const problem = firstProblem(kind, values, args.params === undefined, hostLocale());
      if (problem)
        return { status: 'invalid', kind, message: this.service.show('error', vscode.l10n.t('{0}. Nothing was sent.', problem)) };
      fields = requestFields(kind, values);
    }
    return this.send(kind, input, { density, fields }, args.show !== false);
  }

  private async send(
    kind: StructureKind,
    input: Input,
    { density, fields }: { density?: number; fields?: ParameterValues },
    show: boolean,
  ): Promise<StructureRunOutcome> {
    const body = { poscar: input.text };
    const request = (client: ServiceClient, signal: AbortSignal): Promise<ServiceResponse> => {
      switch (kind) {
        case 'relax':
          return client.relax({ ...fields, ...body }, { signal });
        case 'singlePoint':
          return client.singlePoint(body, { signal });
        case 'md':
          return client.md({ ...fields, ...body }, { signal });
        case 'tightbinding':
          return client.tightbindingCompute({ ...body, kpath_density: density! }, { signal });
      }
    };
    const outcome = await this.recorder.record(
      { kind, inputUri: input.uri.toString(), inputName: input.name, inputText: input.text, ...(fields ? { params: fields } : {}) },
      request,
      {
        title: vscode.l10n.t('{0} of {1}', kindLabel(kind, hostLocale().t), input.name),
        show,
        again: () =>
          this.run(kind, {
            uri: input.uri,
            text: input.text,
            ...(density === undefined ? {} : { kpathDensity: density }),
            ...(fields ? { params: fields } : {}),
          }),
      },
    );
    return { ...outcome, kind };
  }

  /**
   * The POSCAR text to send: given text as it is; else the structure of the open document (unsaved edits
   * included), the file on disk or the active structure editor, converted to POSCAR from any registered
   * format (core/structures/runInput.ts); or why it is refused, shown, with the problem selected.
   */
  private async poscarInput(args: StructureRunArgs): Promise<Input | { refused: ShownMessage } | undefined> {
    const uri = typeof args.uri === 'string' ? vscode.Uri.parse(args.uri) : (args.uri ?? activeStructure());
    if (!uri) return args.text === undefined ? undefined : { uri: vscode.Uri.parse('untitled:POSCAR'), name: 'POSCAR', text: args.text };
    const name = uri.path.slice(uri.path.lastIndexOf('/') + 1) || 'POSCAR';
    if (args.text !== undefined) return { uri, name, text: args.text };
    const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    let text: string;
    try {
      text = open ? open.getText() : new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
    } catch {
      return undefined;
    }
    const format = open && formatEntry(open.languageId)?.structure ? open.languageId : detectFormat(uri.path, text).id;
    const converted = runPoscar(format, text, name, this.shownFrame(uri), hostLocale());
    if (!isRefusal(converted)) {
      if (converted.frame !== undefined && (converted.frames ?? 1) > 1)
        vscode.window.setStatusBarMessage(
          vscode.l10n.t('Token Lens: sending frame {0} of {1} of {2}', converted.frame + 1, converted.frames ?? 1, name),
          5000,
        );
      return { uri, name, text: converted.text };
    }
    if (converted.at) await selectProblem(uri, converted.at, format);
    return { refused: this.service.show('error', converted.refuse) };
  }

  /** A structure with errors is not sent: say why and show the first problem. */
  private async refuseErrors(input: Input): Promise<ShownMessage | undefined> {
    const errors = parsePoscar(input.text, hostLocale()).diagnostics.filter((d) => d.severity === 'error');
    if (!errors.length) return undefined;
    const first = errors[0]!;
    try {
      const document = await vscode.workspace.openTextDocument(input.uri);
      const range = new vscode.Range(first.range.line, first.range.start, first.range.line, first.range.end);
      await vscode.window.showTextDocument(
        document.languageId === POSCAR_LANGUAGE ? document : await vscode.languages.setTextDocumentLanguage(document, POSCAR_LANGUAGE),
        { selection: range },
      );
    } catch {
      // Text given without a document: the message says where the problem is.
    }
    return this.service.show(
      'error',
      plural(
        hostLocale(),
        errors.length,
        '{1} has {0} error, so Token Lens did not send it. {2}',
        '{1} has {0} errors, so Token Lens did not send it. {2}',
        input.name,
        first.message,
      ),
    );
  }
}

function activeStructure(): vscode.Uri | undefined {
  const editor = vscode.window.activeTextEditor;
  return editor && formatEntry(editor.document.languageId)?.structure ? editor.document.uri : undefined;
}

/** Shows a problem of a file not sent, selected, in the file's language. */
async function selectProblem(uri: vscode.Uri, at: SourceRange, languageId: string): Promise<void> {
  try {
    const document = await vscode.workspace.openTextDocument(uri);
    const range = new vscode.Range(at.line, at.start, at.line, Math.max(at.start, at.end));
    await vscode.window.showTextDocument(
      document.languageId === languageId ? document : await vscode.languages.setTextDocumentLanguage(document, languageId),
      { selection: range },
    );
  } catch {
    // The message says where the problem is.
  }
}

function asArgs(arg: unknown): StructureRunArgs {
  if (arg instanceof vscode.Uri || typeof arg === 'string') return { uri: arg };
  return typeof arg === 'object' && arg !== null ? arg : {};
}
