/**
 * A dataset's text for the overview: an open document's (with its unsaved edits), else the file's bytes decoded
 * in slices, so that a 100 MB file never holds the extension host for long. VS Code does not hand extensions a
 * document over 50 MB, so big files are read from the disk.
 */
import * as vscode from 'vscode';
import { CancelledError } from '../../core/tokenizers/index';
import { yieldToEventLoop } from '../../core/util/yield';
import type { Locale } from '../../core/util/locale';

/** Bigger files are refused with a message (the text, its lines and their counts must fit in the host's memory). */
export const MAX_DATASET_BYTES = 256 * 1024 * 1024;
const DECODE_SLICE = 4 * 1024 * 1024;

export type DatasetText = { text: string } | { notice: string };

export async function readDataset(uri: vscode.Uri, signal: AbortSignal, locale: Locale): Promise<DatasetText> {
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (open && !open.isClosed) return { text: open.getText() };
  const { size } = await vscode.workspace.fs.stat(uri);
  const mb = (n: number) => locale.number(n / (1024 * 1024), 0);
  if (size > MAX_DATASET_BYTES)
    return {
      notice: locale.t(
        'This file is {0} MB; the dataset overview reads files up to {1} MB. Split it (one conversation per line, so any line boundary will do) and open each part.',
        mb(size),
        mb(MAX_DATASET_BYTES),
      ),
    };
  const bytes = await vscode.workspace.fs.readFile(uri);
  const decoder = new TextDecoder();
  const parts: string[] = [];
  for (let start = 0; start < bytes.length; start += DECODE_SLICE) {
    parts.push(decoder.decode(bytes.subarray(start, start + DECODE_SLICE), { stream: true }));
    await yieldToEventLoop();
    if (signal.aborted) throw new CancelledError();
  }
  parts.push(decoder.decode());
  return { text: parts.join('') };
}

/** The number of lines, counted in slices (a 100 MB text has a few hundred thousand). */
export async function countLines(text: string, signal: AbortSignal): Promise<number> {
  let lines = 1;
  let deadline = performance.now() + 10;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) {
    lines++;
    if ((lines & 0xfff) === 0 && performance.now() > deadline) {
      await yieldToEventLoop();
      if (signal.aborted) throw new CancelledError();
      deadline = performance.now() + 10;
    }
  }
  return lines;
}
