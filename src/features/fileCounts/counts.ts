/**
 * Token counts of files and the folders that hold them: what a file's bytes say (text, binary, too
 * large), the folder sums, sorting, and the Markdown table a user copies. Pure.
 */

/** Larger files are listed as skipped: a count would hold the memory of the whole file at once. */
export const MAX_FILE_BYTES = 50 * 1024 * 1024;
/** Git's test for binary content: a NUL byte in the first 8,000 bytes. */
const SNIFF_BYTES = 8000;

export type Skip = 'binary' | 'too large' | 'unreadable';

export type Decoded = { text: string } | { skip: Skip };

const decoder = new TextDecoder('utf-8');

/** The text of a file as the editor would show it (UTF-8, BOM dropped), or why it is not counted. */
export function decodeText(bytes: Uint8Array): Decoded {
  if (bytes.length > MAX_FILE_BYTES) return { skip: 'too large' };
  if (bytes.subarray(0, SNIFF_BYTES).includes(0)) return { skip: 'binary' };
  return { text: decoder.decode(bytes) }; // TextDecoder drops a leading BOM
}

export interface FileCount {
  /** Path relative to the workspace folder (or absolute outside one), with '/' separators. */
  path: string;
  tokens?: number;
  chars?: number;
  skipped?: Skip;
}

export interface CountNode {
  /** The last path segment; the root's is ''. */
  name: string;
  path: string;
  tokens: number;
  chars: number;
  files: number;
  skipped: number;
  /** Undefined for a file. */
  children?: CountNode[];
  skip?: Skip;
}

function folderNode(name: string, path: string): CountNode {
  return { name, path, tokens: 0, chars: 0, files: 0, skipped: 0, children: [] };
}

/** The files as a tree of folders, each folder holding the sums of everything under it. */
export function countTree(files: readonly FileCount[]): CountNode {
  const root = folderNode('', '');
  const folders = new Map<string, CountNode>([['', root]]);
  const folder = (path: string): CountNode => {
    let node = folders.get(path);
    if (!node) {
      const cut = path.lastIndexOf('/');
      node = folderNode(path.slice(cut + 1), path);
      folder(cut < 0 ? '' : path.slice(0, cut)).children!.push(node);
      folders.set(path, node);
    }
    return node;
  };
  for (const file of files) {
    const cut = file.path.lastIndexOf('/');
    const parentPath = cut < 0 ? '' : file.path.slice(0, cut);
    folder(parentPath).children!.push({
      name: file.path.slice(cut + 1),
      path: file.path,
      tokens: file.tokens ?? 0,
      chars: file.chars ?? 0,
      files: file.skipped ? 0 : 1,
      skipped: file.skipped ? 1 : 0,
      ...(file.skipped ? { skip: file.skipped } : {}),
    });
    for (let p: string | undefined = parentPath; p !== undefined; p = p === '' ? undefined : p.slice(0, Math.max(0, p.lastIndexOf('/')))) {
      const node = folder(p);
      node.tokens += file.tokens ?? 0;
      node.chars += file.chars ?? 0;
      if (file.skipped) node.skipped++;
      else node.files++;
    }
  }
  return root;
}

export type SortOrder = 'tokens' | 'name';

/** Folders first, then by tokens (most first) or by name; the same order at every level. */
export function sorted(nodes: readonly CountNode[], order: SortOrder): CountNode[] {
  return [...nodes].sort(
    (a, b) => (a.children ? 0 : 1) - (b.children ? 0 : 1) || (order === 'tokens' ? b.tokens - a.tokens : 0) || a.path.localeCompare(b.path),
  );
}

const escapeCell = (text: string): string => text.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/`/g, '\\`');

/** One row per file, largest first, then a total; skipped files listed with the reason. */
export function markdownTable(
  files: readonly FileCount[],
  tokenizer: string,
  format: (n: number) => string = (n) => n.toLocaleString('en-US'),
): string {
  const counted = files.filter((f) => !f.skipped).sort((a, b) => (b.tokens ?? 0) - (a.tokens ?? 0) || a.path.localeCompare(b.path));
  const skipped = files.filter((f) => f.skipped);
  const total = counted.reduce((sum, f) => sum + (f.tokens ?? 0), 0);
  const chars = counted.reduce((sum, f) => sum + (f.chars ?? 0), 0);
  const lines = [
    `| File | Tokens (${escapeCell(tokenizer)}) | Characters |`,
    '| --- | ---: | ---: |',
    ...counted.map((f) => `| ${escapeCell(f.path)} | ${format(f.tokens ?? 0)} | ${format(f.chars ?? 0)} |`),
    ...skipped.map((f) => `| ${escapeCell(f.path)} | skipped: ${f.skipped} | |`),
    `| **Total (${counted.length} ${counted.length === 1 ? 'file' : 'files'})** | **${format(total)}** | **${format(chars)}** |`,
  ];
  return `${lines.join('\n')}\n`;
}
