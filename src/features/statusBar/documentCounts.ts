import * as vscode from 'vscode';
import { DocumentIndex, mergeChanges, type EditEnvelope, type Tokenizer } from '../../core/tokenizers/index';
import { Disposable, toDisposable } from '../../platform/disposable';

/** Edits larger than this are not patched synchronously: the index is rebuilt in time slices instead. */
const LARGE_EDIT = 100_000;

interface Entry {
  tokenizer: Tokenizer;
  version: number;
  index?: DocumentIndex;
  building?: Promise<DocumentIndex | undefined>;
  abort: AbortController;
}

/**
 * Whole-document counts that follow edits incrementally, one index per open document and tokenizer
 * (the status bar's, and the other encodings' for its tooltip), built lazily (only for documents
 * someone asks about) and in time slices.
 */
export class DocumentCounts extends Disposable {
  /** Keyed by the document object: an untitled document's URI is reused by the next untitled one. */
  private readonly entries = new Map<vscode.TextDocument, Map<Tokenizer, Entry>>();
  private readonly changed = this.register(new vscode.EventEmitter<vscode.TextDocument>());
  /** Fires after a document's text changed (its indexes, if it has any, already follow the change). */
  readonly onDidChange = this.changed.event;

  constructor() {
    super();
    this.register(vscode.workspace.onDidChangeTextDocument((e) => this.applyChanges(e)));
    this.register(vscode.workspace.onDidCloseTextDocument((d) => this.forget(d)));
    this.register(toDisposable(() => this.clear()));
  }

  /** The current count, if it is known without waiting. */
  peek(document: vscode.TextDocument, tokenizer: Tokenizer): number | undefined {
    const entry = this.entries.get(document)?.get(tokenizer);
    return entry?.version === document.version ? entry.index?.count : undefined;
  }

  /** The document's count; builds the index in slices when needed. Undefined when superseded or disposed. */
  async count(document: vscode.TextDocument, tokenizer: Tokenizer): Promise<number | undefined> {
    let entry = this.entries.get(document)?.get(tokenizer);
    if (entry && entry.version !== document.version) {
      this.forget(document, tokenizer);
      entry = undefined;
    }
    if (entry?.index) return entry.index.count;
    if (!entry) entry = this.startBuild(document, tokenizer);
    const index = await entry.building;
    return index && this.entries.get(document)?.get(tokenizer) === entry && entry.version === document.version ? index.count : undefined;
  }

  clear(): void {
    for (const document of [...this.entries.keys()]) this.forget(document);
  }

  /** Drops the document's indexes except those of `keep` (a document too big to compare keeps only its own count). */
  retainOnly(document: vscode.TextDocument, keep: Tokenizer): void {
    for (const tokenizer of [...(this.entries.get(document)?.keys() ?? [])]) {
      if (tokenizer !== keep) this.forget(document, tokenizer);
    }
  }

  private startBuild(document: vscode.TextDocument, tokenizer: Tokenizer): Entry {
    const abort = new AbortController();
    const entry: Entry = { tokenizer, version: document.version, abort };
    entry.building = DocumentIndex.build(tokenizer, document.getText(), abort.signal).then(
      (index) => {
        if (this.entries.get(document)?.get(tokenizer) === entry) entry.index = index;
        return index;
      },
      () => undefined, // cancelled: a newer build or a close superseded it
    );
    let byTokenizer = this.entries.get(document);
    if (!byTokenizer) this.entries.set(document, (byTokenizer = new Map()));
    byTokenizer.set(tokenizer, entry);
    return entry;
  }

  private applyChanges(event: vscode.TextDocumentChangeEvent): void {
    if (event.contentChanges.length === 0) return;
    const byTokenizer = this.entries.get(event.document);
    if (byTokenizer) {
      const envelope = mergeChanges(event.contentChanges.map((c) => ({ offset: c.rangeOffset, length: c.rangeLength, text: c.text })));
      let text: string | undefined; // read once for all of the document's indexes
      const newText = () => (text ??= event.document.getText());
      for (const entry of [...byTokenizer.values()]) this.patch(entry, event.document, envelope, newText);
    }
    // Also for a document not indexed yet: one reopened after a language change has no index until asked.
    this.changed.fire(event.document);
  }

  private patch(entry: Entry, document: vscode.TextDocument, envelope: EditEnvelope | undefined, newText: () => string): void {
    const patchable =
      entry.index &&
      envelope &&
      entry.version + 1 === document.version &&
      Math.max(envelope.oldEnd, envelope.newEnd) - envelope.start <= LARGE_EDIT;
    if (patchable) {
      entry.index!.update(envelope.start, envelope.oldEnd, envelope.newEnd, newText());
      entry.version = document.version;
    } else {
      this.forget(document, entry.tokenizer);
    }
  }

  private forget(document: vscode.TextDocument, tokenizer?: Tokenizer): void {
    const byTokenizer = this.entries.get(document);
    if (!byTokenizer) return;
    for (const [key, entry] of [...byTokenizer]) {
      if (tokenizer && key !== tokenizer) continue;
      entry.abort.abort();
      byTokenizer.delete(key);
    }
    if (byTokenizer.size === 0) this.entries.delete(document);
  }
}
