import * as vscode from 'vscode';

/**
 * `dispose` as a disposable, run once however often it is disposed (as VS Code's own toDisposable), for what
 * a feature undoes by hand: aborting, clearing timers, taking a listener back.
 */
export function toDisposable(dispose: () => void): vscode.Disposable {
  let disposed = false;
  return {
    dispose: () => {
      if (disposed) return;
      disposed = true;
      dispose();
    },
  };
}

/** Base for features: everything registered here is disposed with the feature, in reverse order. */
export abstract class Disposable implements vscode.Disposable {
  private readonly disposables: vscode.Disposable[] = [];
  private disposed = false;

  protected register<T extends vscode.Disposable>(disposable: T): T {
    if (this.disposed) {
      disposable.dispose();
    } else {
      this.disposables.push(disposable);
    }
    return disposable;
  }

  protected get isDisposed(): boolean {
    return this.disposed;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    while (this.disposables.length) this.disposables.pop()!.dispose();
  }
}
