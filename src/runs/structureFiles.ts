/**
 * Commands on structure files of any registered format: Convert to POSCAR / CIF / Extended XYZ (the frame
 * the 3D view's player shows, else a frame picked; a new untitled document in the target's language) and
 * the Relaxation Summary of a VASP output file (its ionic steps in the result view), the Trajectory Analysis of a
 * multi-frame periodic file (its g(r) and MSD in the result view), plus Open Structure
 * Sent of a run (the POSCAR it sent, whatever file it came from).
 */
import * as vscode from 'vscode';
import { formatEntry, errorsOf, type FormatEntry } from '../core/structures/formats';
import { detectFormat, SNIFF_CHARS } from '../core/structures/languages';
import { readStructureBytes } from '../core/structures/sliced';
import { refusalToRun } from '../core/structures/poscar';
import { frameLine } from '../core/structures/summary';
import type { StructureFile } from '../core/structures/types';
import { plainText } from '../core/util/outsideText';
import { isAppKind, type RunRecord } from '../core/runs/run';
import { Disposable } from '../platform/disposable';
import { structureOf } from '../platform/formatDocuments';
import { notify } from '../platform/notify';
import { hostLocale } from '../platform/locale';
import { frameCaption } from '../webviews/structure/fileData';
import { relaxationRecord } from '../webviews/results/relaxationFile';
import { trajectoryRecord } from '../webviews/results/trajectoryFile';
import type { ResultViews } from '../webviews/results/feature';

export const CONVERT_COMMANDS = {
  poscar: 'tokenLens.convertToPoscar',
  cif: 'tokenLens.convertToCif',
  xyz: 'tokenLens.convertToExtxyz',
} as const;
export const RELAXATION_SUMMARY = 'tokenLens.relaxationSummary';
export const TRAJECTORY_ANALYSIS = 'tokenLens.trajectoryAnalysis';
export const OPEN_SENT = 'tokenLens.runs.openSent';
/** From the Explorer: a file too big for a text editor (VS Code opens none over ~50 MB), read in slices. */
export const OPEN_RELAXATION_SUMMARY = 'tokenLens.openRelaxationSummary';

/** A command's argument: a URI (CodeLens, Explorer, editor title), or for scripts and tests the frame too. */
interface ConvertArgs {
  uri?: vscode.Uri | string;
  /** 0-based; 'all' writes every frame (Extended XYZ). */
  frame?: number | 'all';
}

function asArgs(arg: unknown): ConvertArgs {
  if (arg instanceof vscode.Uri || typeof arg === 'string') return { uri: arg };
  return typeof arg === 'object' && arg !== null ? arg : {};
}

const fileName = (uri: vscode.Uri): string => uri.path.slice(uri.path.lastIndexOf('/') + 1) || uri.toString();
const notStructure = (name: string): string => vscode.l10n.t('{0} is not a structure file Token Lens reads.', name);

export class StructureFileCommands extends Disposable {
  constructor(
    private readonly results: ResultViews,
    /** The frame a document's 3D view shows, if it plays the document's frames. */
    private readonly shownFrame: (uri: vscode.Uri) => number | undefined,
    /** The run list's record of a run (the Runs view passes its item, a script or test only the id). */
    lookup: (runId: string) => RunRecord | undefined,
  ) {
    super();
    for (const [target, command] of Object.entries(CONVERT_COMMANDS))
      this.register(vscode.commands.registerCommand(command, (arg?: unknown) => this.convert(target, asArgs(arg))));
    this.register(vscode.commands.registerCommand(RELAXATION_SUMMARY, (arg?: unknown) => this.relaxationSummary(asArgs(arg).uri)));
    this.register(vscode.commands.registerCommand(TRAJECTORY_ANALYSIS, (arg?: unknown) => this.trajectoryAnalysis(asArgs(arg).uri)));
    this.register(
      vscode.commands.registerCommand(OPEN_RELAXATION_SUMMARY, (arg?: unknown) => {
        const uri = asArgs(arg).uri;
        return this.openRelaxationSummary(
          typeof uri === 'string' ? vscode.Uri.parse(uri) : (uri ?? vscode.window.activeTextEditor?.document.uri),
        );
      }),
    );
    this.register(
      vscode.commands.registerCommand(OPEN_SENT, (run?: Pick<RunRecord, 'id'>) => {
        const record = run && (lookup(run.id) ?? (run as RunRecord));
        return record && openSent(record);
      }),
    );
  }

  /** The document of a URI (opened if need be) or the active editor, with its shared model. */
  private async source(
    uri: vscode.Uri | string | undefined,
  ): Promise<{ document: vscode.TextDocument; file: StructureFile; entry: FormatEntry } | string> {
    const target = typeof uri === 'string' ? vscode.Uri.parse(uri) : (uri ?? vscode.window.activeTextEditor?.document.uri);
    if (!target) return vscode.l10n.t('Open a structure file (POSCAR, CIF, XYZ, XDATCAR, OUTCAR or vasprun.xml) first.');
    let document: vscode.TextDocument;
    try {
      document = await vscode.workspace.openTextDocument(target);
    } catch (error) {
      return vscode.l10n.t('{0} could not be opened: {1}', fileName(target), error instanceof Error ? error.message : String(error));
    }
    if (!formatEntry(document.languageId)?.structure) {
      // A file whose language VS Code did not set (an unusual name): read it in the format its name or content says.
      const detected = formatEntry(detectFormat(target.path, document.getText().slice(0, 4096)).id);
      if (!detected?.structure) return notStructure(fileName(target));
      document = await vscode.languages.setTextDocumentLanguage(document, detected.language.languageId);
    }
    const file = structureOf(document);
    const entry = formatEntry(document.languageId);
    return file && entry ? { document, file, entry } : notStructure(fileName(target));
  }

  /** Writes the frame shown (or picked) in the target format and opens it as a new document; returns the document's URI. */
  async convert(target: string, args: ConvertArgs): Promise<string | undefined> {
    const writer = formatEntry(target);
    const source = await this.source(args.uri);
    if (typeof source === 'string') return void notify.warning(source);
    const { document, file } = source;
    const name = fileName(document.uri);
    if (!writer?.write) return undefined;
    if (!file.frames.length) {
      const error = errorsOf(file)[0];
      return void notify.error(
        error
          ? vscode.l10n.t('{0} holds no structure to convert: {1}', name, error.message)
          : vscode.l10n.t('{0} holds no structure to convert.', name),
      );
    }
    const frames = await this.framesToWrite(args.frame, document.uri, file, writer);
    if (!frames) return undefined;
    if (target === 'poscar') {
      const refused = refusalToRun(file.frames[frames[0]!]!, name, hostLocale(), true);
      if (refused) return void notify.error(refused);
    }
    let text: string;
    try {
      text = writer.write(frames.map((i) => file.frames[i]!));
    } catch (error) {
      return void notify.error(
        vscode.l10n.t(
          '{0} could not be written as {1}: {2}',
          name,
          writer.language.label,
          error instanceof Error ? error.message : String(error),
        ),
      );
    }
    const written = await vscode.workspace.openTextDocument({ language: writer.language.languageId, content: text });
    await vscode.window.showTextDocument(written, { preview: false });
    const which =
      frames.length === file.frames.length && frames.length > 1
        ? `all ${frames.length} frames`
        : `frame ${frames[0]! + 1} of ${file.frames.length}`;
    vscode.window.setStatusBarMessage(vscode.l10n.t('Token Lens: {0} ({1}) as {2}', name, which, writer.language.label), 5000);
    return written.uri.toString();
  }

  /** The frames to write: given, the one the 3D view shows, the only one, or picked (Extended XYZ may take all). */
  private async framesToWrite(
    given: ConvertArgs['frame'],
    uri: vscode.Uri,
    file: StructureFile,
    writer: FormatEntry,
  ): Promise<number[] | undefined> {
    const n = file.frames.length;
    if (given === 'all' && writer.writesFrames) return file.frames.map((_, i) => i);
    if (typeof given === 'number' && given >= 0 && given < n) return [given];
    if (n === 1) return [0];
    const shown = this.shownFrame(uri);
    if (shown !== undefined && shown < n) return [shown];
    const items: (vscode.QuickPickItem & { frames: number[] })[] = [
      ...(writer.writesFrames
        ? [
            {
              label: vscode.l10n.t('All {0} frames', n),
              description: vscode.l10n.t('a multi-frame file'),
              frames: file.frames.map((_, i) => i),
            },
          ]
        : []),
      ...file.frames.map((f, i) => ({
        label: plainText(`${i + 1}. ${frameCaption(f, i)}`),
        description: plainText(frameLine(f)),
        frames: [i],
      })),
    ];
    const picked = await vscode.window.showQuickPick(items, {
      title: vscode.l10n.t('Convert to {0}', writer.language.label),
      placeHolder: vscode.l10n.t('{0} has {1} frames: which to write?', fileName(uri), n),
    });
    return picked?.frames;
  }

  /** Opens the file's ionic steps in the result view; returns the record's id. */
  relaxationSummary(uri: vscode.Uri | string | undefined): Promise<string | undefined> {
    return this.fileRecord(uri, relaxationRecord);
  }

  /** Opens g(r) and the MSD of the file's frames in the result view; returns the record's id. */
  trajectoryAnalysis(uri: vscode.Uri | string | undefined): Promise<string | undefined> {
    return this.fileRecord(uri, trajectoryRecord);
  }

  private async fileRecord(uri: vscode.Uri | string | undefined, make: typeof relaxationRecord): Promise<string | undefined> {
    const source = await this.source(uri);
    if (typeof source === 'string') return void notify.warning(source);
    const record = make(source.document.uri.toString(), fileName(source.document.uri), source.file, source.entry.language.label);
    if (typeof record === 'string') return void notify.warning(record);
    this.results.show(record, false);
    return record.id;
  }

  /**
   * The Explorer's Open Relaxation Summary: the file read from disk in slices (vasprun.xml streamed through
   * its reader), with progress and Cancel, never opened as a text document. Returns the record's id.
   */
  async openRelaxationSummary(uri: vscode.Uri | undefined): Promise<string | undefined> {
    if (!uri) return void notify.warning(vscode.l10n.t('Choose an OUTCAR or vasprun.xml file in the Explorer.'));
    const record = await readRelaxationSummary(uri);
    if (typeof record === 'string') return void notify.warning(record);
    if (!record) return undefined;
    this.results.show(record, false);
    return record.id;
  }
}

/**
 * A file's relaxation summary read from disk in slices, with progress and Cancel (undefined when cancelled), or why
 * there is none: the Explorer's command, and a summary's view coming back after a window reload.
 */
export async function readRelaxationSummary(uri: vscode.Uri): Promise<RunRecord | string | undefined> {
  const name = fileName(uri);
  let bytes: Uint8Array;
  try {
    bytes = await vscode.workspace.fs.readFile(uri);
  } catch (error) {
    return vscode.l10n.t('{0} could not be read: {1}', name, error instanceof Error ? error.message : String(error));
  }
  const head = new TextDecoder().decode(bytes.subarray(0, SNIFF_CHARS));
  const language = detectFormat(uri.path, head);
  if (!formatEntry(language.id)?.structure) return notStructure(name);
  const file = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Reading {0}', name), cancellable: true },
    (progress, token) => {
      let reported = 0;
      return readStructureBytes(
        language.id,
        bytes,
        (done, total) => {
          const percent = Math.floor((100 * done) / total);
          if (percent > reported)
            progress.report({
              increment: percent - reported,
              message: vscode.l10n.t('{0} of {1} MB', Math.round(done / 1e6), Math.round(total / 1e6)),
            });
          reported = percent;
        },
        () => token.isCancellationRequested,
        hostLocale(),
      );
    },
  );
  return file && relaxationRecord(uri.toString(), name, file, language.label);
}

/** The POSCAR a structure run sent (converted from its file, or the file's text then), as a new document; returns its URI. */
async function openSent(run: RunRecord): Promise<string | undefined> {
  if (isAppKind(run.kind) || typeof run.inputText !== 'string') return undefined;
  const document = await vscode.workspace.openTextDocument({ language: 'poscar', content: run.inputText });
  await vscode.window.showTextDocument(document, { preview: false });
  return document.uri.toString();
}
