/**
 * The other applications from the editor, against the reference server: each command asked through
 * its input boxes and quick picks as a user types, its result view checked through the test seam, one
 * invalid input and one service error walked to their messages, screenshots of every view.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ReferenceServer } from '../../src/server/http/app';
import type { ResultReport } from '../../src/webviews/results/protocol';
import { items, reportWhere, resultReport, useReferenceServer, type Outcome } from './runs';
import { closeAllEditors, openWorkspaceFile, patience, screenshot, ui, untilShown, waitFor } from './util';

const KEY = 'apps-key-3e9a';
const settings = () => vscode.workspace.getConfiguration('tokenLens');
const theme = (name: string | undefined) =>
  vscode.workspace.getConfiguration('workbench').update('colorTheme', name, vscode.ConfigurationTarget.Global);

/** Runs a command and answers its prompts in order, typing each answer and pressing Enter. */
async function runTyping(command: string, answers: string[]): Promise<Outcome> {
  const pending = vscode.commands.executeCommand<Outcome>(command);
  for (const answer of answers) {
    await ui({ op: 'type', text: answer, enter: true, inputBox: true });
  }
  return await pending;
}

const table = (r: ResultReport, title: string) => r.tables.find((t) => t.title === title)!;

suite('Other applications: search, prediction, diffraction, OPTIMADE, heterostructure, VQE, reactions, HEA', () => {
  let server: ReferenceServer;

  suiteSetup(async function () {
    this.timeout(patience(30_000));
    server = await useReferenceServer(KEY);
    await theme('Default Light Modern');
  });

  suiteTeardown(async () => {
    await vscode.commands.executeCommand('tokenLens.clearApiKey');
    await settings().update('service.baseUrl', undefined, vscode.ConfigurationTarget.Global);
    await theme(undefined);
    await server?.close();
  });

  teardown(async () => {
    server.faults.clear();
    await vscode.commands.executeCommand('tokenLens.results.test', 'closeAll');
    await vscode.commands.executeCommand('notifications.clearAll');
    await closeAllEditors();
  });

  test('Search Materials: typed inputs, a sortable table, a row opens the material as a POSCAR document', async () => {
    const before = server.hits('/materials_explorer/search');
    const outcome = await runTyping('tokenLens.searchMaterials', ['', 'Ga As', 'any', '', '']);
    assert.equal(outcome.status, 'ok', outcome.message?.text);
    assert.equal(server.hits('/materials_explorer/search') - before, 1);
    assert.deepEqual(outcome.body, { elements: ['Ga', 'As'], element_mode: 'any' });
    let r = await reportWhere(outcome.runId!, (x) => x.state === 'done', 'the search view');
    assert.equal(r.kind, 'search');
    assert.equal(r.headline, '1 material found');
    assert.match(table(r, 'Materials').rows[0]!, /^JVASP-1174 \| GaAs \| gallium arsenide \| F-43m \| 1\.42 \| −0\.37/);
    const listed = (await items()).find((i) => i.id === outcome.runId)!;
    assert.equal(listed.label, 'Materials search · Ga-As');
    assert.equal(listed.contextValue, 'run.done.answered');
    await screenshot('app-search');

    // Several rows: sorting by band gap, both ways.
    const wide = await vscode.commands.executeCommand<Outcome>('tokenLens.searchMaterials', { body: { bandgap_min: 1 } });
    await reportWhere(wide.runId!, (x) => x.state === 'done', 'the wide search');
    const gaps = (rep: ResultReport) => table(rep, 'Materials').rows.map((row) => Number(row.split(' | ')[4]!.replace('−', '-')));
    const gapColumn = 4;
    r = (await resultReport(wide.runId!, 'click', { target: `sort:results:${gapColumn}` }))!;
    assert.deepEqual(
      gaps(r),
      [...gaps(r)].sort((a, b) => a - b),
      'ascending',
    );
    r = (await resultReport(wide.runId!, 'click', { target: `sort:results:${gapColumn}` }))!;
    assert.deepEqual(
      gaps(r),
      [...gaps(r)].sort((a, b) => b - a),
      'descending',
    );
    assert.equal(gaps(r)[0], 8.8);

    // A row opens GET /materials_explorer/detail/{id}; the structure opens as POSCAR.
    const details = server.hits('/materials_explorer/detail/JVASP-1002');
    await resultReport(wide.runId!, 'click', { target: 'detail:JVASP-1002' });
    const editor = await waitFor(
      () =>
        vscode.window.visibleTextEditors.find(
          (e) => e.document.languageId === 'poscar' && e.document.getText().startsWith('Si JVASP-1002'),
        ),
      10_000,
      'the material opened as POSCAR',
    );
    assert.equal(server.hits('/materials_explorer/detail/JVASP-1002') - details, 1);
    assert.equal(editor.document.lineAt(5).text.trim(), 'Si');
  });

  test('Predict Property: the jid box refuses a bad id and nothing is sent; a good one shows the value with its unit and model', async () => {
    const before = server.hits('/gnn_predictor/predict');
    const pending = vscode.commands.executeCommand<Outcome>('tokenLens.predictProperty');
    await ui({ op: 'type', text: 'Si', enter: true, inputBox: true }); // returns once the refusal shows, or after a second
    await screenshot('app-invalid-jid');
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    assert.equal((await pending).status, 'cancelled');
    assert.equal(server.hits('/gnn_predictor/predict'), before, 'nothing was sent');

    const outcome = await runTyping('tokenLens.predictProperty', ['JVASP-1174', 'bulk_modulus_kv']);
    assert.equal(outcome.status, 'ok', outcome.message?.text);
    assert.deepEqual(outcome.body, { jid: 'JVASP-1174', model: 'bulk_modulus_kv' });
    const r = await reportWhere(outcome.runId!, (x) => x.state === 'done', 'the prediction view');
    assert.equal(r.headline, 'Voigt bulk modulus: 75 GPa');
    await screenshot('app-predict');
  });

  test('a service error reaches the message and the view; Retry in the view sends again', async () => {
    await server.faults.next({ kind: 'status', status: 500, detail: 'model server down', path: '/gnn_predictor/predict' });
    const outcome = await vscode.commands.executeCommand<Outcome>('tokenLens.predictProperty', {
      body: { jid: 'JVASP-1002', model: 'formation_energy_peratom' },
    });
    assert.equal(outcome.status, 'error');
    assert.equal(outcome.errorKind, 'server');
    assert.match(outcome.message!.text, /model server down/);
    assert.deepEqual(outcome.message!.actions, ['Try Again', 'Show Log']);
    let r = await reportWhere(outcome.runId!, (x) => x.state === 'failed', 'the failed view');
    assert.ok(r.targets.includes('retry'));
    await screenshot('app-service-error');
    const before = server.hits('/gnn_predictor/predict');
    // The earlier tests' prediction runs are listed too: the retry's is the one that was not there before the click.
    const listed = new Set((await items()).map((i) => i.id));
    await resultReport(outcome.runId!, 'click', { target: 'retry' });
    await waitFor(() => server.hits('/gnn_predictor/predict') > before, 10_000, 'the retried request');
    const again = await waitFor(
      () =>
        items().then((list) =>
          list.find((i) => !listed.has(i.id) && i.label.startsWith('Property prediction') && i.contextValue === 'run.done.answered'),
        ),
      10_000,
      'the new run',
    );
    r = await reportWhere(again.id, (x) => x.state === 'done', 'the retried view');
    assert.equal(r.headline, 'Formation energy per atom: 0 eV/atom');
    const open = await vscode.commands.executeCommand<string[]>('tokenLens.results.test', 'open');
    assert.ok(open.includes(again.id) && !open.includes(outcome.runId!), `the retry took over the failed view's tab: ${open.join(', ')}`);
  });

  test('Powder diffraction: a computed pattern as sticks; the open data file has live problems, is refused while broken, then matched', async () => {
    const computed = await runTyping('tokenLens.pxrdCompute', ['JVASP-1002']);
    assert.equal(computed.status, 'ok', computed.message?.text);
    let r = await reportWhere(computed.runId!, (x) => x.state === 'done', 'the pattern view');
    assert.match(r.headline, /^\d+ peaks for Si \(JVASP-1002\)$/);
    assert.equal(r.plots[0]!.title, 'Powder pattern');
    assert.ok(table(r, 'Peaks').rows[0]!.startsWith('28.4'), table(r, 'Peaks').rows[0]);
    await screenshot('app-pxrd-compute');

    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'token-lens-xrd-')), 'measured.xy');
    fs.writeFileSync(file, '# Si, Cu Ka\n28.44 1000\n47.30 600\n56.12 -350\n');
    const document = await vscode.workspace.openTextDocument(file);
    assert.equal(document.languageId, 'diffraction');
    await vscode.window.showTextDocument(document);
    const problems = await waitFor(
      () => {
        const list = vscode.languages.getDiagnostics(document.uri);
        return list.length ? list : undefined;
      },
      5000,
      'live problems',
    );
    assert.deepEqual(
      problems.map((d) => [d.range.start.line, d.message]),
      [[3, 'Line 4: the intensity must not be negative (found -350)']],
    );
    await vscode.commands.executeCommand('workbench.actions.view.problems');
    await untilShown('.markers-panel .monaco-list-row', 'the problem in the Problems panel');
    await screenshot('diffraction-problems');
    await vscode.commands.executeCommand('workbench.action.closePanel');
    const before = server.hits('/pxrd/match');
    const refused = await vscode.commands.executeCommand<Outcome>('tokenLens.pxrdMatch');
    assert.equal(refused.status, 'invalid');
    assert.match(refused.message!.text, /measured\.xy has an error, so Token Lens did not send it\. Line 4/);
    assert.equal(vscode.window.activeTextEditor!.selection.start.line, 3, 'the error is selected');
    assert.equal(server.hits('/pxrd/match'), before);

    await vscode.window.activeTextEditor!.edit((e) => e.replace(new vscode.Range(3, 6, 3, 10), '350'));
    await waitFor(() => vscode.languages.getDiagnostics(document.uri).length === 0, 5000, 'the problem gone');
    const matched = await runTyping('tokenLens.pxrdMatch', ['']);
    assert.equal(matched.status, 'ok', matched.message?.text);
    assert.equal(matched.body!.xrd_data, '28.44 1000\n47.3 600\n56.12 350');
    r = await reportWhere(matched.runId!, (x) => x.state === 'done', 'the match view');
    assert.match(r.headline, /^Best match: JVASP-1002 · Si \(score /);
    assert.equal(r.plots[0]!.series, 2, 'measured over the best match');
    await screenshot('app-pxrd-match');
  });

  test('OPTIMADE Query: an example picked, a paged table; the filter is remembered', async () => {
    const outcome = await runTyping('tokenLens.optimadeQuery', ['nelements = 1']);
    assert.equal(outcome.status, 'ok', outcome.message?.text);
    let r = await reportWhere(outcome.runId!, (x) => x.state === 'done', 'the OPTIMADE view');
    assert.equal(r.headline, '5 structures match');
    // Five a page: the whole table of ten takes two.
    const all = await vscode.commands.executeCommand<Outcome>('tokenLens.optimadeQuery', { body: { filter_string: 'nelements >= 1' } });
    r = await reportWhere(all.runId!, (x) => x.state === 'done', 'the long list');
    assert.equal(r.headline, '10 structures match');
    const first = table(r, 'Structures').rows;
    assert.equal(first.length, 5);
    assert.ok(r.targets.includes('page:structures:next'));
    r = (await resultReport(all.runId!, 'click', { target: 'page:structures:next' }))!;
    const second = table(r, 'Structures').rows;
    assert.equal(second.length, 5);
    assert.ok(
      second.every((row) => !first.includes(row)),
      'the second page holds the other five',
    );
    await screenshot('app-optimade');
    // The filter typed before heads the list next time: Enter on the empty box takes it.
    const repeat = await runTyping('tokenLens.optimadeQuery', ['']);
    assert.deepEqual(repeat.body, { filter_string: 'nelements = 1' });
  });

  test('Generate Heterostructure: the interface opens as POSCAR with its mismatch', async () => {
    const outcome = await runTyping('tokenLens.generateHeterostructure', ['JVASP-1174', 'JVASP-1002', '001']);
    assert.equal(outcome.status, 'ok', outcome.message?.text);
    const r = await reportWhere(outcome.runId!, (x) => x.state === 'done', 'the heterostructure view');
    assert.match(r.headline, /^Interface of \d+ atoms, largest mismatch 4\.09 %$/);
    assert.deepEqual(table(r, 'Lattice match').rows.slice(0, 2), ['Mismatch along u | +4.088 %', 'Mismatch along v | +4.088 %']);
    // The interface opened as a POSCAR document by itself, the view beside it.
    const interfaces = () =>
      vscode.workspace.textDocuments.filter((d) => d.languageId === 'poscar' && d.getText().startsWith('GaAs on Si') && !d.isClosed);
    const editor = await waitFor(
      () => vscode.window.visibleTextEditors.find((e) => interfaces().includes(e.document)),
      10_000,
      'the interface POSCAR',
    );
    assert.equal(
      vscode.languages.getDiagnostics(editor.document.uri).filter((d) => d.severity === vscode.DiagnosticSeverity.Error).length,
      0,
    );
    await screenshot('app-heterostructure');
    const opened = interfaces().length;
    await resultReport(outcome.runId!, 'click', { target: 'structure:open' });
    await waitFor(() => interfaces().length > opened, 10_000, 'Open Structure opens it again');

    // The film from an open POSCAR: picked by its name, sent as its text.
    await openWorkspaceFile('GaAs.vasp');
    const fromFile = await runTyping('tokenLens.generateHeterostructure', ['GaAs.vasp', 'JVASP-1002', '001']);
    assert.equal(fromFile.status, 'ok', fromFile.message?.text);
    assert.match(String(fromFile.body!.poscar_film), /^GaAs zinc blende/);
    const primitive = await reportWhere(fromFile.runId!, (x) => x.state === 'done', 'the view of the POSCAR film');
    assert.ok(table(primitive, 'Lattice match').rows.includes('Angle mismatch | −30.000°'), 'a 60° primitive cell on a 90° one');
  });

  test('Quantum VQE, Balance Reaction, High-Entropy Alloy', async () => {
    const vqe = await runTyping('tokenLens.quantumVqe', ['JVASP-1002', '0.5 0 0.5', 'tight_binding']);
    assert.equal(vqe.status, 'ok', vqe.message?.text);
    let r = await reportWhere(vqe.runId!, (x) => x.state === 'done', 'the VQE view');
    assert.match(r.headline, /^VQE −\d+\.\d{6} eV · classical −\d+\.\d{6} eV$/);
    assert.equal(r.plots[0]!.title, 'Energy per iteration');
    await screenshot('app-vqe');

    const reaction = await runTyping('tokenLens.balanceReaction', ['Fe2O3 + C', 'Fe + CO2']);
    assert.equal(reaction.status, 'ok', reaction.message?.text);
    r = await reportWhere(reaction.runId!, (x) => x.state === 'done', 'the reaction view');
    assert.equal(r.headline, '2 Fe₂O₃ + 3 C → 4 Fe + 3 CO₂');
    assert.deepEqual(table(r, 'Coefficients').rows, ['Fe₂O₃ | reactant | 2', 'C | reactant | 3', 'Fe | product | 4', 'CO₂ | product | 3']);
    await screenshot('app-reaction');
    // Save as JSON in the view writes the answer as the service sent it.
    const target = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'token-lens-json-')), 'reaction.json');
    await resultReport(reaction.runId!, 'click', { target: 'save-json', saveTarget: vscode.Uri.file(target).toString() });
    await waitFor(() => fs.existsSync(target), 5000, 'the saved JSON');
    assert.deepEqual(JSON.parse(fs.readFileSync(target, 'utf8')).coefficients, { reactants: [2, 3], products: [4, 3] });

    await theme('Default Dark Modern');
    const hea = await runTyping('tokenLens.highEntropyAlloy', ['Fe Co Ni Cr Mn', '']);
    assert.equal(hea.status, 'ok', hea.message?.text);
    r = await reportWhere(hea.runId!, (x) => x.state === 'done' && x.theme === 'dark', 'the HEA view, dark');
    assert.equal(r.headline, 'Predicted phase: FCC');
    assert.ok(
      table(r, 'Parameters').rows.some((row) => row.startsWith('Mixing entropy ΔS_mix | 13.38')),
      JSON.stringify(table(r, 'Parameters')),
    );
    await screenshot('app-hea-dark');
    await theme('Default Light Modern');
  });

  test('a request edited as JSON is checked before sending: broken JSON and a bad value are refused, a good one is sent', async () => {
    const editor = await vscode.commands.executeCommand<vscode.TextEditor>(
      'tokenLens.editApplicationRequest',
      'tokenLens.highEntropyAlloy',
    );
    assert.equal(editor.document.languageId, 'jsonc');
    assert.equal(editor.document.lineAt(0).text, '// Token Lens request: POST /hea/compute');
    const before = server.hits('/hea/compute');
    const all = new vscode.Range(2, 0, editor.document.lineCount, 0);
    await editor.edit((e) => e.replace(all, '{ "elements": ["Ti", "Zr"], }\n'));
    let outcome = await vscode.commands.executeCommand<Outcome>('tokenLens.sendApplicationRequest');
    assert.equal(outcome.status, 'invalid');
    assert.match(outcome.message!.text, /not valid JSON \(line 3\)/);
    await editor.edit((e) => e.replace(new vscode.Range(2, 0, editor.document.lineCount, 0), '{ "elements": ["Ti", "Xx"] }\n'));
    outcome = (await vscode.commands.executeCommand<Outcome>('tokenLens.sendApplicationRequest'))!;
    assert.equal(outcome.status, 'invalid');
    assert.match(outcome.message!.text, /"Xx" is not an element symbol.*Nothing was sent/);
    assert.equal(server.hits('/hea/compute'), before);
    await editor.edit((e) =>
      e.replace(
        new vscode.Range(2, 0, editor.document.lineCount, 0),
        '{ "elements": ["Ti", "Zr", "Hf", "Nb", "Ta"], "fractions": [2, 1, 1, 1, 1] }\n',
      ),
    );
    outcome = (await vscode.commands.executeCommand<Outcome>('tokenLens.sendApplicationRequest'))!;
    assert.equal(outcome.status, 'ok', outcome.message?.text);
    assert.equal(outcome.response!.body.value!.formula, 'Ti0.3333Zr0.1667Hf0.1667Nb0.1667Ta0.1667');
  });

  test('Open Application Page shows GET /{app} in the Simple Browser', async () => {
    const opened = await vscode.commands.executeCommand<{ status: string; url: string }>('tokenLens.openApplicationPage', 'hea');
    assert.equal(opened.status, 'ok');
    assert.equal(opened.url, `${server.url}/hea`);
    await waitFor(
      () => vscode.window.tabGroups.all.flatMap((g) => g.tabs).some((t) => /Simple Browser|hea/i.test(t.label)),
      5000,
      'the Simple Browser tab',
    );
    assert.equal((await vscode.commands.executeCommand<{ status: string }>('tokenLens.openApplicationPage', 'nowhere')).status, 'invalid');
  });
});
