/** The URIs a view keeps across a window reload: read back from the page's state, and whether their file is still there. */
import * as vscode from 'vscode';

/** The URI a page kept, or undefined when the text is none. */
export function tryParse(text: string): vscode.Uri | undefined {
  try {
    return vscode.Uri.parse(text, true);
  } catch {
    return undefined;
  }
}

/** A saved file that is still there, or an untitled document the window still holds. */
export async function exists(uri: vscode.Uri): Promise<boolean> {
  if (uri.scheme === 'untitled') return vscode.workspace.textDocuments.some((d) => d.uri.toString() === uri.toString());
  try {
    await vscode.workspace.fs.stat(uri);
    return true;
  } catch {
    return false;
  }
}
