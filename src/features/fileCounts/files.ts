/**
 * Files for counting, as VS Code sees them: a folder expands to its files minus `files.exclude` and
 * what `.gitignore` files ignore; an open file is counted with its unsaved edits; binary and oversized
 * files are skipped and said so.
 */
import ignore, { type Ignore } from 'ignore';
import * as vscode from 'vscode';
import { countAsync, countChars, shownCount, type Tokenizer } from '../../core/tokenizers/index';
import { decodeText, type FileCount } from './counts';

interface IgnoreFile {
  /** The folder holding the .gitignore, with a trailing '/'. */
  dir: string;
  rules: Ignore;
}

async function ignoreFiles(folder: vscode.Uri, token: vscode.CancellationToken): Promise<IgnoreFile[]> {
  const found = await vscode.workspace.findFiles(new vscode.RelativePattern(folder, '**/.gitignore'), undefined, undefined, token);
  return Promise.all(
    found.map(async (uri) => ({
      dir: uri.path.slice(0, uri.path.lastIndexOf('/') + 1),
      rules: ignore().add(new TextDecoder().decode(await vscode.workspace.fs.readFile(uri))),
    })),
  );
}

function ignored(uri: vscode.Uri, rules: readonly IgnoreFile[]): boolean {
  return rules.some(({ dir, rules: r }) => uri.path.startsWith(dir) && r.ignores(uri.path.slice(dir.length)));
}

/** The files under the selection: files as chosen, folders expanded; each file once, in path order. */
export async function collectFiles(selection: readonly vscode.Uri[], token: vscode.CancellationToken): Promise<vscode.Uri[]> {
  const files = new Map<string, vscode.Uri>();
  const rulesByRoot = new Map<string, Promise<IgnoreFile[]>>();
  for (const uri of selection) {
    const stat = await vscode.workspace.fs.stat(uri);
    if (!(stat.type & vscode.FileType.Directory)) {
      files.set(uri.toString(), uri);
      continue;
    }
    const root = vscode.workspace.getWorkspaceFolder(uri)?.uri ?? uri;
    if (!rulesByRoot.has(root.toString())) rulesByRoot.set(root.toString(), ignoreFiles(root, token));
    const rules = await rulesByRoot.get(root.toString())!;
    // exclude undefined: files.exclude applies (not search.exclude), as in the Explorer.
    for (const file of await vscode.workspace.findFiles(new vscode.RelativePattern(uri, '**/*'), undefined, undefined, token)) {
      if (!ignored(file, rules)) files.set(file.toString(), file);
    }
  }
  return [...files.values()].sort((a, b) => a.path.localeCompare(b.path));
}

/** The file's text: the open document's (unsaved edits included), else the file's; or why it is skipped. */
export async function readForCount(uri: vscode.Uri): Promise<{ text: string } | { skip: NonNullable<FileCount['skipped']> }> {
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (open) return { text: open.getText() };
  try {
    return decodeText(await vscode.workspace.fs.readFile(uri));
  } catch {
    return { skip: 'unreadable' };
  }
}

/** "src/a.ts" relative to its workspace folder (prefixed by the folder's name when there are several), else the path. */
export function displayPath(uri: vscode.Uri): string {
  return vscode.workspace.asRelativePath(uri, (vscode.workspace.workspaceFolders?.length ?? 0) > 1);
}

/** Counts each file in turn (time-sliced, so the editor stays responsive), reporting progress; stops when aborted. */
export async function countFiles(
  files: readonly vscode.Uri[],
  tokenizer: Tokenizer,
  signal: AbortSignal,
  progress: (done: number) => void = () => undefined,
): Promise<FileCount[]> {
  const out: FileCount[] = [];
  for (const uri of files) {
    if (signal.aborted) break;
    const read = await readForCount(uri);
    const path = displayPath(uri);
    if ('skip' in read) out.push({ path, skipped: read.skip });
    else out.push({ path, tokens: await countFile(tokenizer, read.text, signal), chars: countChars(read.text) });
    progress(out.length);
  }
  return out;
}

/** A file's count; an estimate's is scaled per file (round(base × factor)), so the folders sum what the rows show. */
async function countFile(tokenizer: Tokenizer, text: string, signal: AbortSignal): Promise<number> {
  return shownCount(tokenizer.info, await countAsync(tokenizer, text, { signal }));
}
