/**
 * Inspector render benchmark (extension side): for 50,000 characters (the service's limit) and 1 MB,
 * the time to tokenize (sliced, as the panel does), build the segment table, serialize the render
 * message (tables as Int32Arrays, the rest as JSON, as postMessage does), and validate it as the webview does; plus the message size and the longest time the
 * host is blocked; then a one-character edit in the middle, as the panel updates it (only the
 * stretch around the edit re-tokenized, the rest of the table reused). The webview's own render
 * time is measured in a real webview by test/bench/webview (`npm run bench` runs both).
 *
 *   npm run build:tests && node out/test/bench/inspector.js [--encodings=cl100k_base,o200k_base]
 */
import { DEFAULT_OPTIONS, isToWebview, type RenderMessage } from '../../src/inspector/protocol';
import { buildSegmentTable, toWireTable } from '../../src/inspector/segments';
import { IncrementalTables } from '../../src/inspector/incremental';
import { spansSliced } from '../../src/inspector/tokenize';
import { countChars, loadTokenizerSync, TOKENIZER_NAMES } from '../../src/tokenizers';
import { withHeartbeat } from './heartbeat';
import { inspectorText } from './textgen';

export interface InspectorBenchRow {
  encoding: string;
  chars: number;
  tokens: number;
  segments: number;
  tokenizeMs: number;
  /** Longest stretch the event loop was blocked while tokenizing (the sliced path yields between chunks). */
  maxBlockedMs: number;
  segmentMs: number;
  validateMs: number;
  serializeMs: number;
  messageBytes: number;
  totalMs: number;
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
      const started = performance.now();
      const { value: spans, maxGapMs: maxBlockedMs } = await withHeartbeat(() => spansSliced(tokenizer, text));
      const tokenized = performance.now();
      const table = buildSegmentTable(text, spans!);
      const segmented = performance.now();
      // What postMessage costs the host: the tables as Int32Arrays (sent as binary), the rest as JSON.
      const primary = { tokenizer: encoding, nTokens: spans!.length, table: toWireTable(table) };
      const message: RenderMessage = {
        type: 'render', seq: 1, source: 'bench', scope: 'document', text, nChars: countChars(text),
        tokenizers: [...TOKENIZER_NAMES], primary, options: DEFAULT_OPTIONS,
      };
      const json = JSON.stringify({ ...message, primary: { ...primary, table: null } });
      const serialized = performance.now();
      if (!isToWebview(message)) throw new Error('the render message does not pass the webview guard');
      const validated = performance.now();
      const binaryBytes = Object.values(primary.table).reduce((sum: number, a: Int32Array) => sum + a.byteLength, 0);
      const tables = new IncrementalTables();
      await tables.table(encoding, tokenizer, text);
      const middle = text.length >> 1;
      const edited = `${text.slice(0, middle)}x${text.slice(middle)}`;
      const edit = await withHeartbeat(() => tables.table(encoding, tokenizer, edited));
      if (edit.value!.ids.length !== tokenizer.count(edited)) throw new Error('the edited table does not hold every token');
      rows.push({
        editMs: edit.totalMs, editMaxBlockedMs: edit.maxGapMs,
        encoding, chars: message.nChars, tokens: spans!.length, segments: table.bounds.length - 1,
        tokenizeMs: tokenized - started, maxBlockedMs, segmentMs: segmented - tokenized, serializeMs: serialized - segmented,
        validateMs: validated - serialized, messageBytes: Buffer.byteLength(json) + binaryBytes, totalMs: segmented - started + (serialized - segmented),
      });
    }
  }
  return rows;
}

export function formatInspectorBench(rows: InspectorBenchRow[]): string {
  const ms = (x: number) => (x >= 100 ? x.toFixed(0) : x.toFixed(1)).padStart(6);
  const lines = ['Inspector (extension side): a first render (tokenize in slices + segment table + message), then a one-character edit',
    'encoding      chars      tokens  tokenize  max-block  segment  serialize      guard  message     total  |   edit  max-block'];
  for (const r of rows) {
    lines.push(`${r.encoding.padEnd(12)} ${r.chars.toLocaleString('en-US').padStart(9)} ${r.tokens.toLocaleString('en-US').padStart(9)} ${ms(r.tokenizeMs)} ms ${ms(r.maxBlockedMs)} ms ${ms(r.segmentMs)} ms ${ms(r.serializeMs)} ms ${ms(r.validateMs)} ms ${(r.messageBytes / 1e6).toFixed(1).padStart(5)} MB ${ms(r.totalMs)} ms | ${ms(r.editMs)} ms ${ms(r.editMaxBlockedMs)} ms`);
  }
  return lines.join('\n');
}

if (require.main === module) {
  const flag = process.argv.find((a) => a.startsWith('--encodings='));
  const encodings = flag ? flag.split('=')[1].split(',') : undefined;
  void benchInspector(undefined, encodings).then((rows) => console.log(formatInspectorBench(rows)));
}
