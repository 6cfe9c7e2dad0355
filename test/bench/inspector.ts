/**
 * Inspector render benchmark (extension side), for 50,000 characters (the service's limit) and 1 MB,
 * along the panel's own path: the first paint's table (what is in view, between safe cuts), the
 * first render's segment table (tokenized and segmented chunk by chunk, each chunk on its own turn
 * of the event loop), the render message (tables as Int32Arrays, the rest as JSON, as postMessage sends it) and the webview's guard; then a one-character edit in
 * the middle (only the stretch around it re-tokenized, the rest of the table reused). The longest
 * time the host is blocked is measured throughout. The webview's own render time is measured in a
 * real webview by test/bench/webview (`npm run bench` runs both).
 *
 *   npm run build:tests && node out/test/bench/inspector.js [--encodings=cl100k_base,o200k_base]
 */
import { boundaryWindow } from '../../src/core/inspector/window';
import { IncrementalTables } from '../../src/core/inspector/incremental';
import { DEFAULT_OPTIONS, isToWebview, type RenderMessage } from '../../src/webviews/inspector/protocol';
import { toWireTable } from '../../src/core/inspector/segments';
import { countChars, loadTokenizerSync, TOKENIZER_NAMES } from '../../src/core/tokenizers/index';
import { withHeartbeat } from './heartbeat';
import { inspectorText } from './textgen';

export interface InspectorBenchRow {
  encoding: string;
  chars: number;
  tokens: number;
  /** The first paint's table: 60 lines in view in the middle of the text, from a safe cut before them to one after. */
  visibleMs: number;
  /** The first render's table: tokenize and segment, chunk by chunk. */
  tableMs: number;
  /** Longest stretch the event loop was blocked while the table was built. */
  maxBlockedMs: number;
  serializeMs: number;
  validateMs: number;
  messageBytes: number;
  /** A one-character edit in the middle: the table updated incrementally, and the longest block meanwhile. */
  editMs: number;
  editMaxBlockedMs: number;
}

export async function benchInspector(sizes = [50_000, 1_000_000], encodings = ['cl100k_base', 'o200k_base']): Promise<InspectorBenchRow[]> {
  const rows: InspectorBenchRow[] = [];
  for (const encoding of encodings) {
    const tokenizer = loadTokenizerSync(encoding);
    tokenizer.spans('warm up the tokenizer 👍 日本');
    for (const size of sizes) {
      const text = inspectorText(size);
      const paintStarted = performance.now();
      const middle = text.length >> 1;
      toWireTable(boundaryWindow(tokenizer, text, middle, middle + 60 * 80).table);
      const visibleMs = performance.now() - paintStarted;
      const tables = new IncrementalTables();
      const first = await withHeartbeat(() => tables.table(encoding, tokenizer, text));
      const table = first.value!;
      const started = performance.now();
      const message: RenderMessage = {
        type: 'render',
        seq: 1,
        source: 'bench',
        scope: 'document',
        text,
        nChars: countChars(text),
        tokenizers: [...TOKENIZER_NAMES],
        primary: { tokenizer: encoding, nTokens: table.ids.length, table },
        options: DEFAULT_OPTIONS,
        origin: [0, 0],
      };
      // What postMessage serializes as JSON; the Int32Arrays travel as binary buffers beside it.
      const json = JSON.stringify({ ...message, primary: { ...message.primary, table: null } });
      const serialized = performance.now();
      if (!isToWebview(message)) throw new Error('the render message does not pass the webview guard');
      const validated = performance.now();
      const binaryBytes = [table.bounds, table.tokenIndex, table.ids, table.byteLengths].reduce((sum, a) => sum + a.byteLength, 0);
      const edited = `${text.slice(0, middle)}x${text.slice(middle)}`;
      const edit = await withHeartbeat(() => tables.table(encoding, tokenizer, edited));
      if (table.ids.length !== tokenizer.count(text) || edit.value!.ids.length !== tokenizer.count(edited)) {
        throw new Error('a table does not hold every token');
      }
      rows.push({
        encoding,
        chars: message.nChars,
        tokens: table.ids.length,
        visibleMs,
        tableMs: first.totalMs,
        maxBlockedMs: first.maxGapMs,
        serializeMs: serialized - started,
        validateMs: validated - serialized,
        messageBytes: Buffer.byteLength(json) + binaryBytes,
        editMs: edit.totalMs,
        editMaxBlockedMs: edit.maxGapMs,
      });
    }
  }
  return rows;
}

export function formatInspectorBench(rows: InspectorBenchRow[]): string {
  const ms = (x: number) => (x >= 100 ? x.toFixed(0) : x.toFixed(1)).padStart(6);
  const lines = [
    "Inspector (extension side): the first paint's table (60 lines in view mid-text), a first render (table built chunk by chunk, message, webview guard), then a one-character edit",
    'encoding        chars    tokens   in view     table  max-block  serialize    guard  message  |     edit  max-block',
  ];
  for (const r of rows) {
    lines.push(
      `${r.encoding.padEnd(12)} ${r.chars.toLocaleString('en-US').padStart(9)} ${r.tokens.toLocaleString('en-US').padStart(9)} ${ms(r.visibleMs)} ms ${ms(r.tableMs)} ms ${ms(r.maxBlockedMs)} ms  ${ms(r.serializeMs)} ms ${ms(r.validateMs)} ms ${(r.messageBytes / 1e6).toFixed(1).padStart(4)} MB  | ${ms(r.editMs)} ms ${ms(r.editMaxBlockedMs)} ms`,
    );
  }
  return lines.join('\n');
}

if (require.main === module) {
  const flag = process.argv.find((a) => a.startsWith('--encodings='));
  const encodings = flag ? flag.split('=')[1]!.split(',') : undefined;
  void benchInspector(undefined, encodings).then((rows) => console.log(formatInspectorBench(rows)));
}
