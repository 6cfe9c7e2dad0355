import * as vscode from 'vscode';
import { DocumentIndex, mergeChanges, type Tokenizer } from '../tokenizers';
import { Disposable } from '../util/disposable';

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
 * Whole-document counts that follow edits incrementally, one index per open document and tokenizer,
 * built lazily (only for documents someone asks about) and in time slices.
 */
export class DocumentCounts extends Disposable {
  /** Keyed by the document object: an untitled document's URI is reused by the next untitled one. */
  private readonly entries = new Map<vscode.TextDocument, Entry>();
  private readonly changed = this.register(new vscode.EventEmitter<vscode.TextDocument>());
  /** Fires after a document's text changed (its index, if it has one, already follows the change). */
  readonly onDidChange = this.changed.event;

  constructor() {
    super();
    this.register(vscode.workspace.onDidChangeTextDocument((e) => this.applyChanges(e)));
    this.register(vscode.workspace.onDidCloseTextDocument((d) => this.forget(d)));
    this.register({ dispose: () => this.clear() });
  }

  /** The current count, if it is known without waiting. */
  peek(document: vscode.TextDocument, tokenizer: Tokenizer): number | undefined {
    const entry = this.entries.get(document);
    return entry?.tokenizer === tokenizer && entry.version === document.version ? entry.index?.count : undefined;
  }

  /** The document's count; builds the index in slices when needed. Undefined when superseded or disposed. */
  async count(document: vscode.TextDocument, tokenizer: Tokenizer): Promise<number | undefined> {
    let entry = this.entries.get(document);
    if (entry && (entry.tokenizer !== tokenizer || entry.version !== document.version)) {
      this.forget(document);
      entry = undefined;
    }
    if (entry?.index) return entry.index.count;
    if (!entry) entry = this.startBuild(document, tokenizer);
    const index = await entry.building;
    return index && this.entries.get(document) === entry && entry.version === document.version ? index.count : undefined;
  }

  clear(): void {
    for (const document of [...this.entries.keys()]) this.forget(document);
  }

  private startBuild(document: vscode.TextDocument, tokenizer: Tokenizer): Entry {
    const abort = new AbortController();
    const entry: Entry = { tokenizer, version: document.version, abort };
    entry.building = DocumentIndex.build(tokenizer, document.getText(), abort.signal).then(
      (index) => {
        if (this.entries.get(document) === entry) entry.index = index;
        return index;
      },
      () => undefined, // cancelled: a newer build or a close superseded it
    );
    this.entries.set(document, entry);
    return entry;
  }

  private applyChanges(event: vscode.TextDocumentChangeEvent): void {
    if (event.contentChanges.length === 0) return;
    const entry = this.entries.get(event.document);
    if (entry) this.patch(entry, event);
    // Also for a document not indexed yet: one reopened after a language change has no index until asked.
    this.changed.fire(event.document);
  }

  private patch(entry: Entry, event: vscode.TextDocumentChangeEvent): void {
    const envelope = mergeChanges(event.contentChanges.map((c) => ({ offset: c.rangeOffset, length: c.rangeLength, text: c.text })));
    const patchable = entry.index && envelope && entry.version + 1 === event.document.version
      && Math.max(envelope.oldEnd, envelope.newEnd) - envelope.start <= LARGE_EDIT;
    if (patchable) {
      entry.index!.update(envelope!.start, envelope!.oldEnd, envelope!.newEnd, event.document.getText());
      entry.version = event.document.version;
    } else {
      this.forget(event.document);
    }
  }

  private forget(document: vscode.TextDocument): void {
    this.entries.get(document)?.abort.abort();
    this.entries.delete(document);
  }
}
