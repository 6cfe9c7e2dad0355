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
      if (this.views.get(key) === view) this.views.delete(key);
    });
    return view;
  }

  dispose(): void {
    [...this.views.values()].forEach((view) => view.dispose());
  }
}
