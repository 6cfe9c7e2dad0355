/**
 * The open views of one kind, by key (a document, a run): one view per key, a new one replacing the
 * old, each forgotten once the user closes it. Disposing the set closes them all.
 */
import type * as vscode from 'vscode';

interface View extends vscode.Disposable {
  readonly onDidDispose: vscode.Event<void>;
}

export class PanelSet<P extends View> implements vscode.Disposable {
  private readonly views = new Map<string, P>();

  get(key: string): P | undefined {
    return this.views.get(key);
  }

  /** The one opened last, for tests that name none. */
  last(): P | undefined {
    return [...this.views.values()].pop();
  }

  keys(): string[] {
    return [...this.views.keys()];
  }

  add(key: string, view: P): P {
    this.views.get(key)?.dispose();
    this.views.set(key, view);
    view.onDidDispose(() => {
      for (const [k, v] of this.views) if (v === view) this.views.delete(k);
    });
    return view;
  }

  /** The view under `from` is now the one of `to` (a run again taking over its failed twin's tab). */
  rekey(from: string, to: string): P | undefined {
    const view = this.views.get(from);
    if (!view || this.views.has(to)) return undefined;
    this.views.delete(from);
    this.views.set(to, view);
    return view;
  }

  dispose(): void {
    [...this.views.values()].forEach((view) => view.dispose());
  }
}
