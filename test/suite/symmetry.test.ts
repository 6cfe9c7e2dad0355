import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { activateExtension, closeAllEditors, openDocument, patience, waitFor } from './util';

// Rock salt in its conventional cell (8 atoms), written for this test.
const NACL = ['NaCl', '5.64', '1 0 0', '0 1 0', '0 0 1', 'Na Cl', '4 4', 'Direct']
  .concat(['0 0 0', '0 0.5 0.5', '0.5 0 0.5', '0.5 0.5 0', '0.5 0.5 0.5', '0.5 0 0', '0 0.5 0', '1 0 0.5'])
  .join('\n');

/** The text of the editor a command opened (a new untitled POSCAR), once it is not `before`. */
async function opened(before: vscode.TextDocument): Promise<vscode.TextDocument> {
  await waitFor(() => vscode.window.activeTextEditor && vscode.window.activeTextEditor.document !== before, 15_000, 'a new document');
  const document = vscode.window.activeTextEditor!.document;
  assert.equal(document.languageId, 'poscar');
  assert.equal(document.isUntitled, true);
  return document;
}

const atoms = (text: string): number =>
  text
    .split('\n')[6]!
    .trim()
    .split(/\s+/)
    .reduce((n, x) => n + Number(x), 0);

suite('Symmetry', () => {
  suiteSetup(async () => {
    await activateExtension();
  });
  teardown(closeAllEditors);

  test('Symmetry: the space group in the CodeLens with the tolerance used; Primitive, Niggli and Wrap open new POSCARs', async function () {
    this.timeout(patience(60_000));
    const editor = await openDocument(NACL, 'poscar');
    const uri = editor.document.uri;
    let titles: string[] = [];
    await waitFor(
      async () => {
        const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri, 20);
        titles = lenses.map((l) => l.command?.title ?? '');
        return titles.some((t) => t.startsWith('Fm-3m'));
      },
      30_000,
      () => `a space-group lens; lenses: ${titles.join(' | ')}`,
      200,
    );
    assert.ok(titles.includes('Fm-3m (225) · cubic · cF · symprec 0.001 Å'), titles.join(' | '));
    assert.match(titles.at(-1)!, /^Na4Cl4 · 8 atoms/);

    await vscode.commands.executeCommand('tokenLens.symmetry.primitiveCell', uri);
    const primitive = await opened(editor.document);
    assert.equal(atoms(primitive.getText()), 2);
    assert.match(primitive.lineAt(0).text, /primitive standard cell, Fm-3m \(225\), symprec 0.001 Å/);

    await vscode.window.showTextDocument(editor.document);
    await vscode.commands.executeCommand('tokenLens.symmetry.niggliCell', uri);
    const niggli = await opened(editor.document);
    assert.equal(atoms(niggli.getText()), 8);

    await vscode.window.showTextDocument(editor.document);
    await vscode.commands.executeCommand('tokenLens.symmetry.wrapAtoms', uri);
    const wrapped = await opened(editor.document);
    assert.ok(!wrapped.getText().includes('1.0000000000000000'), 'the atom at x = 1 is wrapped to 0');
  });
});
