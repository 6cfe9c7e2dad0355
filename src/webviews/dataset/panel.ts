/**
 * The dataset overview of one JSON Lines file: every line counted as the configured model reads it (in time
 * slices, with the line cache the CodeLens uses), then the numbers, the histogram, the training cost and the
 * lines to look at, which open in the editor when clicked. Counts again when the file, the tokenizer, the
 * window or the chat settings change; prices and epochs (the setting's, or those chosen in the view) only redraw.
 */
import * as vscode from 'vscode';
import { DatasetTally } from '../../core/chat/datasetStats';
import { gauge, type ContextWindow } from '../../core/counts/summary';
import type { LineResult } from '../../core/chat/index';
import { CancelledError } from '../../core/tokenizers/index';
import type { Locale } from '../../core/util/locale';
import { Debouncer } from '../../core/util/debounce';
import { config, onDidChangeConfig } from '../../platform/config';
import { WebviewHost } from '../host';
import { isFromDatasetPage, isToDatasetPage, type DatasetReport, type FromDatasetPage, type ToDatasetPage } from './protocol';
import { countLines, readDataset } from './read';
import { datasetView, type DatasetInput } from './view';
import { toDisposable } from '../../platform/disposable';

/** How the editor counts conversations (features/chat, given by the wiring: a view does not import features). */
export interface DatasetCounter {
  /** Each line counted as the tokenizer `name`'s model reads it, in time slices, with the CodeLens's line cache. */
  lines(text: string, name: string, signal: AbortSignal): AsyncIterable<LineResult>;
  /** How that model reads conversations (its format's label); rejects when its chat files are broken. */
  format(name: string): Promise<string>;
  /** The window its conversations are measured against, as the dataset's problems are; undefined when none is known. */
  window(name: string): ContextWindow | undefined;
}

export interface DatasetEnvironment {
  counter: DatasetCounter;
  log: vscode.LogOutputChannel;
  locale: Locale;
  testMode: boolean;
}

/** How often the page hears of progress while counting. */
const PROGRESS_MS = 400;

export class DatasetPanel extends WebviewHost<ToDatasetPage, FromDatasetPage> {
  protected override readonly accepts = isToDatasetPage;
  private seq = 0;
  private input: DatasetInput;
  private abort = new AbortController();
  private counting: Promise<void> | undefined;
  private readonly soon = this.register(new Debouncer(800, () => this.recount()));
  private readonly locale: Locale;

  constructor(
    panel: vscode.WebviewPanel,
    extensionUri: vscode.Uri,
    readonly uri: vscode.Uri,
    private readonly environment: DatasetEnvironment,
    /** The epochs chosen in the view (kept by the page across a reload); until then tokenLens.dataset.epochs. */
    private chosenEpochs?: number,
  ) {
    const title = environment.locale.t('Dataset: {0}', fileName(uri));
    super(
      panel,
      extensionUri,
      { title, script: 'dataset.js', styles: ['results.css', 'dataset.css'] },
      isFromDatasetPage,
      environment.testMode,
      environment.log,
    );
    this.locale = environment.locale;
    panel.title = title;
    this.input = this.emptyInput();
    this.register(toDisposable(() => this.abort.abort()));
    this.register(
      onDidChangeConfig((affects) => {
        if (['tokenizer', 'contextWindow', 'chat', 'specialTokens'].some(affects)) this.recount();
        else if (['prices', 'dataset'].some(affects)) this.redraw();
      }),
    );
    this.register(
      vscode.workspace.onDidChangeTextDocument((event) => {
        if (event.document.uri.toString() === uri.toString() && event.contentChanges.length > 0) this.soon.schedule();
      }),
    );
    this.recount();
  }

  reveal(): void {
    this.panel.reveal(this.panel.viewColumn, false);
  }

  /** Resolves once the current count has finished (or failed). */
  async settled(): Promise<void> {
    while (this.counting) await this.counting;
  }

  recount(): void {
    this.abort.abort();
    const abort = (this.abort = new AbortController());
    const running = this.count(abort.signal).catch((error: unknown) => {
      if (error instanceof CancelledError || abort.signal.aborted) return;
      this.environment.log.error(`Token Lens could not count the dataset ${this.uri.toString(true)}:`, error);
      const message = error instanceof Error ? error.message : String(error);
      this.show({ ...this.input, state: 'failed', notice: `${this.locale.t('Not counted:')} ${message}` });
    });
    this.counting = running;
    void running.finally(() => {
      if (this.counting === running) this.counting = undefined;
    });
  }

  private emptyInput(): DatasetInput {
    return {
      fileName: fileName(this.uri),
      tokenizer: config.tokenizer,
      format: '',
      state: 'counting',
      elapsedMs: 0,
      stats: new DatasetTally().stats(),
      epochs: this.epochs(),
      key: this.uri.toString(),
      ...priceOf(config.tokenizer),
    };
  }

  private async count(signal: AbortSignal): Promise<void> {
    const started = performance.now();
    const name = config.tokenizer;
    const base = { ...this.emptyInput(), tokenizer: name };
    this.show(base);
    const read = await readDataset(this.uri, signal, this.locale);
    if (signal.aborted) return;
    if ('notice' in read) return this.show({ ...base, state: 'failed', notice: read.notice });
    const { counter } = this.environment;
    const window = counter.window(name);
    const tally = new DatasetTally(window && gauge(0, window)!.usable);
    const format = await counter.format(name);
    const lines = await countLines(read.text, signal);
    let posted = performance.now();
    for await (const result of counter.lines(read.text, name, signal)) {
      tally.add(result);
      if (performance.now() - posted > PROGRESS_MS) {
        posted = performance.now();
        this.show({ ...base, format, progress: result.line / lines, elapsedMs: posted - started, stats: tally.stats(0, false) });
      }
    }
    if (signal.aborted) return;
    this.show({ ...base, format, state: 'done', elapsedMs: performance.now() - started, stats: tally.stats() });
  }

  private epochs(): number {
    return this.chosenEpochs ?? config.datasetEpochs;
  }

  /** Prices or epochs changed: the same counts, shown again. */
  private redraw(): void {
    const { price: _, ...rest } = this.input;
    this.show({ ...rest, epochs: this.epochs(), ...priceOf(this.input.tokenizer) });
  }

  private show(input: DatasetInput): void {
    this.input = input;
    this.post({ type: 'show', seq: ++this.seq, view: datasetView(input, this.locale) });
  }

  protected onReady(): void {
    this.post({ type: 'show', seq: ++this.seq, view: datasetView(this.input, this.locale) });
  }

  protected receive(message: FromDatasetPage): void {
    if (message.type === 'reveal') void this.revealLine(message.line);
    else if (message.type === 'epochs') {
      this.chosenEpochs = message.epochs;
      this.redraw();
    } else if (message.type === 'openPrices') void vscode.commands.executeCommand('workbench.action.openSettings', 'tokenLens.prices');
  }

  /** Selects the line in the editor (vscode.open: a file over 50 MB opens too, where no extension gets its document). */
  private async revealLine(line: number): Promise<void> {
    const shown = vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === this.uri.toString());
    const column =
      shown?.viewColumn ?? (this.panel.viewColumn === vscode.ViewColumn.One ? vscode.ViewColumn.Beside : vscode.ViewColumn.One);
    const at = new vscode.Position(line - 1, 0);
    await vscode.commands.executeCommand('vscode.open', this.uri, { viewColumn: column, selection: new vscode.Range(at, at) });
  }

  /** Test seam: asks the page what it shows (after a click, or epochs typed into the view, as a user would). */
  requestReport(action: 'report' | 'click' | 'epochs', target?: string, value?: number): Promise<DatasetReport | undefined> {
    return this.askPage((id) => ({ type: 'test', id, action, ...(target ? { target } : {}), ...(value !== undefined ? { value } : {}) }));
  }
}

function fileName(uri: vscode.Uri): string {
  return uri.path.slice(uri.path.lastIndexOf('/') + 1) || uri.toString();
}

function priceOf(tokenizer: string): { price?: DatasetInput['price'] } {
  const price = config.price(tokenizer);
  return price ? { price } : {};
}
