/**
 * Problems of one language's documents, kept up to date as the user types: computed on open, again
 * a moment after typing pauses, removed on close or when the document changes language.
 */
import * as vscode from 'vscode';
import { Disposable, toDisposable } from './disposable';

/** Diagnostics follow typing this long after the last keystroke. */
const DIAGNOSTICS_DEBOUNCE_MS = 150;

export class LiveDiagnostics extends Disposable {
  private readonly collection: vscode.DiagnosticCollection;
  private readonly timers = new Map<vscode.TextDocument, ReturnType<typeof setTimeout>>();

  /**
   * `diagnose` is asked for a document of the language only. If it throws, that document keeps no
   * problems and the error goes to `log`: one file's content never stops the others' diagnostics.
   */
  constructor(
    private readonly language: string,
    private readonly diagnose: (document: vscode.TextDocument) => vscode.Diagnostic[],
    private readonly log: vscode.LogOutputChannel,
  ) {
    super();
    this.collection = this.register(vscode.languages.createDiagnosticCollection(language));
    this.register(vscode.workspace.onDidOpenTextDocument((d) => this.update(d)));
    this.register(vscode.workspace.onDidChangeTextDocument((e) => this.schedule(e.document)));
    this.register(vscode.workspace.onDidCloseTextDocument((d) => this.forget(d)));
    this.register(toDisposable(() => this.timers.forEach((t) => clearTimeout(t))));
    vscode.workspace.textDocuments.forEach((d) => this.update(d));
  }

  private schedule(document: vscode.TextDocument): void {
    if (document.languageId !== this.language) return;
    clearTimeout(this.timers.get(document));
    this.timers.set(
      document,
      setTimeout(() => {
        this.timers.delete(document);
        this.update(document);
      }, DIAGNOSTICS_DEBOUNCE_MS),
    );
  }

  private update(document: vscode.TextDocument): void {
    // A language change reopens the document: one that is no longer of this language loses its problems.
    if (document.languageId !== this.language || document.isClosed) this.collection.delete(document.uri);
    else this.collection.set(document.uri, this.diagnoseSafely(document));
  }

  private diagnoseSafely(document: vscode.TextDocument): vscode.Diagnostic[] {
    try {
      return this.diagnose(document);
    } catch (error) {
      this.log.error(`Checking ${document.uri.toString(true)} (${this.language}) failed; its problems are not shown.`, error);
      return [];
    }
  }

  private forget(document: vscode.TextDocument): void {
    clearTimeout(this.timers.get(document));
    this.timers.delete(document);
    this.collection.delete(document.uri);
  }
}
