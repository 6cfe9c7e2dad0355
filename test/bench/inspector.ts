/**
 * Inspector render benchmark (extension side): for 50,000 characters (the service's limit) and 1 MB,
 * the time to tokenize (sliced, as the panel does), build the segment table, validate it as the
 * webview does, and serialize the render message; plus the message size and the longest time the
 * host is blocked. The webview's own render time is measured in the extension-host test
 * (test/suite/inspector.test.ts, "[inspector-bench]" lines) where a real webview renders it.
 *
 *   npm run build:tests && node out/test/bench/inspector.js [--encodings=cl100k_base,o200k_base]
 */
import { DEFAULT_OPTIONS, isToWebview, type RenderMessage } from '../../src/inspector/protocol';
import { buildSegmentTable } from '../../src/inspector/segments';
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
      const message: RenderMessage = {
        type: 'render', seq: 1, source: 'bench', scope: 'document', text, nChars: countChars(text),
        tokenizers: [...TOKENIZER_NAMES], primary: { tokenizer: encoding, nTokens: spans!.length, table }, options: DEFAULT_OPTIONS,
      };
      const json = JSON.stringify(message);
      const serialized = performance.now();
      if (!isToWebview(JSON.parse(json))) throw new Error('the render message does not pass the webview guard');
      const validated = performance.now();
      rows.push({
        encoding, chars: message.nChars, tokens: spans!.length, segments: table.bounds.length - 1,
        tokenizeMs: tokenized - started, maxBlockedMs, segmentMs: segmented - tokenized, serializeMs: serialized - segmented,
        validateMs: validated - serialized, messageBytes: Buffer.byteLength(json), totalMs: segmented - started + (serialized - segmented),
      });
    }
  }
  return rows;
}

export function formatInspectorBench(rows: InspectorBenchRow[]): string {
  const ms = (x: number) => (x >= 100 ? x.toFixed(0) : x.toFixed(1)).padStart(6);
  const lines = ['Inspector (extension side): tokenize (sliced) + segment + serialize, per render',
    'encoding      chars      tokens  tokenize  max-block  segment  serialize  parse+guard  message     total'];
  for (const r of rows) {
    lines.push(`${r.encoding.padEnd(12)} ${r.chars.toLocaleString('en-US').padStart(9)} ${r.tokens.toLocaleString('en-US').padStart(9)} ${ms(r.tokenizeMs)} ms ${ms(r.maxBlockedMs)} ms ${ms(r.segmentMs)} ms ${ms(r.serializeMs)} ms ${ms(r.validateMs)} ms ${(r.messageBytes / 1e6).toFixed(1).padStart(5)} MB ${ms(r.totalMs)} ms`);
  }
  return lines.join('\n');
}

if (require.main === module) {
  const flag = process.argv.find((a) => a.startsWith('--encodings='));
  const encodings = flag ? flag.split('=')[1].split(',') : undefined;
  void benchInspector(undefined, encodings).then((rows) => console.log(formatInspectorBench(rows)));
}
