/**
 * Benchmarks for the prompt writers' features: token boundaries redrawn on a scroll and an edit of a
 * 1 MB document (against re-tokenizing the whole document, which is what drawing boundaries without
 * the window would take, with Token Lens and with js-tiktoken), and files counted per second over this
 * repository's own files (the Explorer command's read, decode and count, against js-tiktoken).
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { boundaryWindow } from '../../src/core/inspector/window';
import { decodeText } from '../../src/features/fileCounts/counts';
import { countAsync, loadTokenizerSync } from '../../src/core/tokenizers/index';

interface JsTiktoken {
  encode(text: string, allowed?: unknown, disallowed?: unknown): number[];
}

function jsTiktoken(encoding: string): JsTiktoken {
  const { Tiktoken } = require('js-tiktoken/lite') as { Tiktoken: new (ranks: unknown) => JsTiktoken };
  const ranks = require(`js-tiktoken/ranks/${encoding}`) as { default?: unknown };
  return new Tiktoken(ranks.default ?? ranks);
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const time = (f: () => unknown): number => {
  const t = performance.now();
  f();
  return performance.now() - t;
};
const ms = (x: number): string => (x < 10 ? x.toFixed(2) : x < 100 ? x.toFixed(1) : x.toFixed(0));

export interface BoundaryBench {
  scrollMs: number;
  editMs: number;
  wholeMs: number;
  jsTiktokenMs: number;
}

/** Drawing one screen (60 lines) at 50 random scroll positions, and after 50 random one-character edits. */
export function benchBoundaries(text: string, encoding = 'cl100k_base'): BoundaryBench {
  const tokenizer = loadTokenizerSync(encoding);
  const lineStarts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) lineStarts.push(i + 1);
  let seed = 7;
  const random = (n: number): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
  const screen = (line: number): [number, number] => [lineStarts[line]!, lineStarts[Math.min(lineStarts.length - 1, line + 60)]!];
  boundaryWindow(tokenizer, text, 0, 5000); // warm the engine as the editor would be
  const scroll = Array.from({ length: 50 }, () => time(() => boundaryWindow(tokenizer, text, ...screen(random(lineStarts.length)))));
  let edited = text;
  const edit = Array.from({ length: 50 }, () => {
    const line = random(lineStarts.length - 60);
    const at = lineStarts[line]! + 3;
    edited = `${edited.slice(0, at)}x${edited.slice(at)}`;
    return time(() => boundaryWindow(tokenizer, edited, ...screen(line)));
  });
  const whole = Array.from({ length: 3 }, () => time(() => tokenizer.spans(text)));
  const js = jsTiktoken(encoding);
  const jsWhole = Array.from({ length: 3 }, () => time(() => js.encode(text, 'all', [])));
  return { scrollMs: median(scroll), editMs: median(edit), wholeMs: median(whole), jsTiktokenMs: median(jsWhole) };
}

export interface FilesBench {
  files: number;
  skipped: number;
  bytes: number;
  tokenLensMs: number;
  jsTiktokenMs: number;
}

/** Every file git tracks in this repository, read, decoded and counted as the Explorer command does. */
export async function benchFiles(root: string, encoding = 'cl100k_base'): Promise<FilesBench> {
  const listed = spawnSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' });
  const paths = listed.status === 0 ? listed.stdout.split('\0').filter(Boolean) : [];
  const tokenizer = loadTokenizerSync(encoding);
  const js = jsTiktoken(encoding);
  let skipped = 0;
  let bytes = 0;
  const texts: string[] = [];
  let started = performance.now();
  for (const file of paths) {
    const data = fs.readFileSync(path.join(root, file));
    bytes += data.length;
    const decoded = decodeText(data);
    if ('skip' in decoded) skipped++;
    else {
      texts.push(decoded.text);
      await countAsync(tokenizer, decoded.text);
    }
  }
  const tokenLensMs = performance.now() - started;
  started = performance.now();
  let tokens = 0;
  for (const text of texts) tokens += js.encode(text, 'all', []).length;
  if (tokens < 0) throw new Error('unreachable: keeps the count from being optimised away');
  const jsTiktokenMs = performance.now() - started;
  return { files: paths.length, skipped, bytes, tokenLensMs, jsTiktokenMs };
}

export function formatPromptBench(b: BoundaryBench | undefined, f: FilesBench): string[] {
  const lines: string[] = [];
  if (b) {
    lines.push('token boundaries, one screen (60 lines) of the 1 MB corpus, cl100k_base, median of 50:');
    lines.push(
      `  redraw after a scroll ${ms(b.scrollMs)} ms, after an edit ${ms(b.editMs)} ms; re-tokenizing the whole document instead: Token Lens ${ms(b.wholeMs)} ms (${(b.wholeMs / b.scrollMs).toFixed(0)}× the scroll), js-tiktoken ${ms(b.jsTiktokenMs)} ms (${(b.jsTiktokenMs / b.scrollMs).toFixed(0)}×)`,
    );
  } else lines.push('token boundaries: the 1 MB corpus is not on this machine, skipped');
  const perSecond = (n: number, t: number): string => Math.round((n / t) * 1000).toLocaleString('en-US');
  lines.push(
    `files counted (this repository's ${f.files} tracked files, ${(f.bytes / 1e6).toFixed(1)} MB, ${f.skipped} binary skipped; read + decode + count, time-sliced):`,
  );
  lines.push(
    `  Token Lens ${perSecond(f.files, f.tokenLensMs)} files/s (${ms(f.tokenLensMs)} ms); js-tiktoken counting the same decoded texts alone ${ms(f.jsTiktokenMs)} ms (${(f.jsTiktokenMs / f.tokenLensMs).toFixed(1)}× Token Lens's whole pass)`,
  );
  return lines;
}
