import * as vscode from 'vscode';
import type { RankSource } from '../core/tokenizers/tiktoken/ranks';

/**
 * The rank files the package carries (dist/ranks), read from the extension's own location: through
 * the workbench's file system where it serves that scheme, else with fetch (vscode.dev serves
 * extensions over https).
 */
export function extensionRanks(extensionUri: vscode.Uri): RankSource {
  return {
    async fetchText(file) {
      const uri = vscode.Uri.joinPath(extensionUri, 'dist', 'ranks', `${file}.js`);
      try {
        return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
      } catch (fsError) {
        if (uri.scheme !== 'http' && uri.scheme !== 'https') throw fsError;
        const response = await fetch(uri.toString(true));
        if (!response.ok) throw new Error(`${uri.toString(true)}: HTTP ${response.status}`, { cause: fsError });
        return response.text();
      }
    },
  };
}
