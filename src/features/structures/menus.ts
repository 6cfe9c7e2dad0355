/**
 * The structure commands' menus (package.json: `editorLangId in tokenLens.structureLanguages`, and
 * `resourceLangId in …` in the Explorer) show for the structure languages of the formats table, set here at
 * activation: a new format is its row in core/structures/languages.ts, not an edit of every menu's `when`.
 */
import * as vscode from 'vscode';
import { STRUCTURE_LANGUAGE_IDS } from '../../core/structures/languages';

const STRUCTURE_LANGUAGES_CONTEXT = 'tokenLens.structureLanguages';

export function showStructureMenus(): void {
  void vscode.commands.executeCommand('setContext', STRUCTURE_LANGUAGES_CONTEXT, STRUCTURE_LANGUAGE_IDS);
}
