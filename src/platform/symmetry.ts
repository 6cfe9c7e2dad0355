/**
 * The editor's one symmetry finder (core/crystallography/symmetry.ts) and the space group of each POSCAR
 * document's version, found on first ask and kept until the text or the tolerance changes; a search for a version
 * that is no longer current is cancelled. moyo's .wasm is read from the extension's dist/ with vscode.workspace.fs
 * (both hosts) on the first search, never at activation; the desktop host runs the searches themselves on a
 * worker thread (symmetryPool.ts, passed in as `offThread`).
 */
import * as vscode from 'vscode';
import { cellOfPoscar } from '../core/crystallography/cell';
import { SymmetryFinder, type SymmetryOutcome, type SymmetrySearch } from '../core/crystallography/symmetry';
import { config } from './config';
import { loadMoyo, MOYO_WASM_FILE } from './moyo';
import { parsed } from './poscarDocuments';

let shared: SymmetryFinder | undefined;

/**
 * The finder, created (not loaded) on first call; the extension's URI says where dist/ is. The first caller (the
 * symmetry feature, at activation) says where searches run.
 */
export function symmetryFinder(extensionUri: vscode.Uri, offThread?: SymmetrySearch): SymmetryFinder {
  shared ??= new SymmetryFinder(
    async () => loadMoyo(await vscode.workspace.fs.readFile(vscode.Uri.joinPath(extensionUri, 'dist', MOYO_WASM_FILE))),
    undefined,
    offThread,
  );
  return shared;
}

let documents: DocumentSymmetry | undefined;

/** The documents' space groups, shared by the CodeLens, the hover and the 3D view (one search per version). */
export function documentSymmetry(extensionUri: vscode.Uri): DocumentSymmetry {
  documents ??= new DocumentSymmetry(symmetryFinder(extensionUri));
  return documents;
}

/** Forgets the shared instances (the symmetry feature's disposal): a next start makes new ones. */
export function resetSymmetry(): void {
  documents?.dispose();
  documents = undefined;
  shared = undefined;
}

interface Entry {
  key: string;
  cancel: AbortController;
  outcome: Promise<SymmetryOutcome>;
  settled?: SymmetryOutcome;
}

/** Space groups of open POSCAR documents, one search per version and tolerance; fires when one settles. */
export class DocumentSymmetry implements vscode.Disposable {
  private readonly entries = new Map<string, Entry>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private readonly closing: vscode.Disposable;

  constructor(private readonly finder: SymmetryFinder) {
    this.closing = vscode.workspace.onDidCloseTextDocument((d) => {
      this.entries.get(d.uri.toString())?.cancel.abort();
      this.entries.delete(d.uri.toString());
    });
  }

  private entry(document: vscode.TextDocument): Entry | undefined {
    const poscar = parsed(document).poscar;
    if (!poscar) return undefined;
    const symprec = config.symmetryTolerance;
    const key = `${document.version}:${symprec}`;
    const id = document.uri.toString();
    const known = this.entries.get(id);
    if (known?.key === key) return known;
    known?.cancel.abort();
    const cancel = new AbortController();
    const entry: Entry = { key, cancel, outcome: this.finder.find(cellOfPoscar(poscar), symprec, this.finder.autoAtoms, cancel.signal) };
    this.entries.set(id, entry);
    void entry.outcome.then((outcome) => {
      entry.settled = outcome;
      if (this.entries.get(id) === entry) this.changed.fire(document.uri);
    });
    return entry;
  }

  /** The outcome if it is known now; else starts the search (onDidChange fires when it settles). */
  peek(document: vscode.TextDocument): SymmetryOutcome | 'pending' | undefined {
    const entry = this.entry(document);
    return entry ? (entry.settled ?? 'pending') : undefined;
  }

  /** The outcome, waiting for the search; undefined when the document has no structure. */
  async get(document: vscode.TextDocument): Promise<SymmetryOutcome | undefined> {
    return this.entry(document)?.outcome;
  }

  dispose(): void {
    this.closing.dispose();
    this.changed.dispose();
    for (const entry of this.entries.values()) entry.cancel.abort();
    this.entries.clear();
  }
}
