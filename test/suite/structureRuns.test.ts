import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ReferenceServer } from '../../src/server/http/app';
import type { StructureReport } from '../../src/webviews/structure/protocol';
import { items, reportWhere, resultReport, useReferenceServer, type Outcome } from './runs';
import {
  closeAllEditors,
  openWorkspaceFile,
  patience,
  resetSettings,
  screenshot,
  screenshotsSupported,
  ui,
  untilShown,
  waitFor,
} from './util';

const KEY = 'runs-key-5c1f';
const settings = () => vscode.workspace.getConfiguration('tokenLens');
const run = (command: string, args?: object) => vscode.commands.executeCommand<Outcome>(`tokenLens.${command}`, args);

const THEMES = [
  ['Default Dark Modern', 'dark'],
  ['Default Light Modern', 'light'],
] as const;

/** The run's view in both themes, as a user sees it; the theme in use first, so that each call switches once. */
async function screenshotThemes(runId: string, name: string): Promise<void> {
  const workbench = vscode.workspace.getConfiguration('workbench');
  for (const [theme, kind] of workbench.get('colorTheme') === THEMES[1][0] ? [...THEMES].reverse() : THEMES) {
    await workbench.update('colorTheme', theme, vscode.ConfigurationTarget.Global);
    await reportWhere(runId, (x) => x.theme === kind, `the ${kind} theme`);
    await screenshot(`${name}-${kind}`);
  }
}

/**
 * Compare with Original: a diff of the sent POSCAR and the relaxed one written in the input's layout, so only
 * coordinate lines differ (the header, species and counts are the same lines), and at least one does.
 */
async function compareWithOriginal(runId: string): Promise<void> {
  await resultReport(runId, 'click', { target: 'structure:compare' });
  const isDiff = (t: vscode.Tab | undefined): t is vscode.Tab & { input: vscode.TabInputTextDiff } =>
    t?.input instanceof vscode.TabInputTextDiff;
  const diffTab = () => vscode.window.tabGroups.all.flatMap((g) => g.tabs).find(isDiff);
  await waitFor(() => diffTab() !== undefined, 10_000, 'the diff editor');
  const tab = diffTab()!;
  const [left, right] = await Promise.all([
    vscode.workspace.openTextDocument(tab.input.original),
    vscode.workspace.openTextDocument(tab.input.modified),
  ]);
  assert.equal(left.lineCount, right.lineCount, 'one line per line');
  const header = 8; // comment, scale, three lattice vectors, species, counts, mode (Si.vasp has no Selective dynamics)
  const differing: number[] = [];
  for (let i = 0; i < left.lineCount; i++) if (left.lineAt(i).text !== right.lineAt(i).text) differing.push(i);
  assert.ok(differing.length > 0, 'the relaxed coordinates differ');
  assert.ok(
    differing.every((i) => i >= header && i < header + 8),
    `only coordinate lines differ: ${differing.map((i) => `${i + 1}: ${left.lineAt(i).text} → ${right.lineAt(i).text}`).join('; ')}`,
  );
  for (const i of differing) {
    const numbers = right.lineAt(i).text.trim().split(/\s+/).slice(0, 3).map(Number);
    assert.ok(
      numbers.every((x) => x >= 0 && x < 1),
      `wrapped into the cell: ${right.lineAt(i).text}`,
    );
  }
  await untilShown('.monaco-diff-editor :is(.line-insert, .char-insert)', 'the changed lines marked in the diff');
  await screenshot('compare-with-original');
  await vscode.window.tabGroups.close(tab);
  // The result view is back in sight and answering before the next run opens beside it.
  await reportWhere(runId, (r) => r.state === 'done', 'the relax view after the diff closed');
}

const structureView = (action: string, args: object) =>
  vscode.commands.executeCommand<StructureReport | undefined>('tokenLens.structure.test', action, args);

/** Clicks the view's 3D button and checks the trajectory it opens: frames that move the atoms, a caption, playback. */
async function playTrajectory(runId: string, name: string): Promise<StructureReport> {
  await resultReport(runId, 'click', { target: 'structure:show3d' });
  const uri = `tokenlens-run:${runId}`;
  await waitFor(
    async () => (await vscode.commands.executeCommand<string[]>('tokenLens.structure.test', 'open'))?.includes(uri),
    10_000,
    'the trajectory view',
  );
  let first: StructureReport | undefined;
  await waitFor(
    async () => ((first = await structureView('setFrame', { uri, frame: 0, paint: true }))?.painted ?? 0) > 0.01,
    40_000,
    () => `a drawn first frame: ${JSON.stringify(first)}`,
    200,
  );
  assert.ok(first!.frames > 2, `frames: ${first!.frames}`);
  assert.equal(first!.playing, false);
  assert.match(first!.caption, new RegExp(`^Step 0 .*\\(1 of ${first!.frames}\\)$`));
  const last = (await structureView('setFrame', { uri, frame: first!.frames - 1 }))!;
  assert.equal(last.frame, first!.frames - 1);
  assert.notDeepEqual(last.firstAtom, first!.firstAtom, 'the atoms move from the first frame to the last');
  await structureView('setFrame', { uri, frame: 0 });
  const playing = (await structureView('play', { uri }))!;
  assert.equal(playing.playing, true);
  await waitFor(async () => ((await structureView('report', { uri }))?.frame ?? 0) > 1, 15_000, 'frames advance while playing');
  await structureView('pause', { uri });
  await screenshot(name);
  return first!;
}

suite('Structure runs: relax, single point, MD and band structure from the open POSCAR', () => {
  let server: ReferenceServer;

  suiteSetup(async function () {
    this.timeout(patience(30_000));
    server = await useReferenceServer(KEY);
  });

  suiteTeardown(async () => {
    await vscode.commands.executeCommand('tokenLens.clearApiKey');
    for (const key of ['service.baseUrl', 'service.timeoutSeconds', 'service.maxRetries', 'tightbinding.kpathDensity'])
      await settings().update(key, undefined, vscode.ConfigurationTarget.Global);
    await vscode.workspace.getConfiguration('workbench').update('colorTheme', undefined, vscode.ConfigurationTarget.Global);
    await server?.close();
  });

  teardown(async () => {
    server.faults.clear();
    await resetSettings('tokenLens', ['service.timeoutSeconds']);
    await vscode.commands.executeCommand('tokenLens.results.test', 'closeAll');
    await closeAllEditors();
  });

  test('Use the Built-in Local Service: a Relax answered on this machine with no account, and only with its key', async function () {
    this.timeout(patience(90_000));
    const before = server.hits('/gnn_ff_dynamics/relax');
    try {
      const used = await vscode.commands.executeCommand<{ status: string; url: string; message: string }>('tokenLens.useBuiltinService');
      assert.equal(used.status, 'ok', used.message);
      assert.match(used.url, /^http:\/\/127\.0\.0\.1:\d+$/);
      assert.notEqual(used.url, server.url, 'not the test server');
      assert.match(used.message, /built-in local service/);
      await openWorkspaceFile('Si.vasp');
      const outcome = await run('relax');
      assert.equal(outcome.status, 'ok', outcome.message?.text);
      assert.equal(server.hits('/gnn_ff_dynamics/relax'), before, 'the test server got nothing');
      assert.equal(outcome.response!.body.value!.natoms, 8);
      const shown = await reportWhere(outcome.runId!, (x) => x.state === 'done', 'the relax view');
      assert.match(
        shown.source,
        /^Computed on this machine by the built-in reference service/,
        'the view says where the answer comes from',
      );
      assert.equal(settings().get('service.baseUrl'), server.url, 'the URL setting is left alone');
      const answered = await fetch(`${used.url}/tokenizer/tokenize`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"text":"x"}',
      });
      assert.equal(answered.status, 401, 'it wants its key: another program on the machine cannot use it without');
    } finally {
      await settings().update('service.builtin', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  test('result views share one column beside the editor: a run from the second column adds a tab there, not a third column', async function () {
    this.timeout(patience(60_000));
    await closeAllEditors();
    // Silicon's two-atom primitive cell: its band structure's density of states diagonalises 10×10 Hamiltonians, not
    // the 8-atom cell's 40×40 (about 10 s less on this machine), and the columns are what this test is about.
    const si = path.join(vscode.workspace.workspaceFolders![0]!.uri.fsPath, 'POSCAR');
    await vscode.window.showTextDocument(vscode.Uri.file(si), { viewColumn: vscode.ViewColumn.One });
    const uri = vscode.Uri.file(si);
    assert.equal((await run('singlePoint', { uri })).status, 'ok');
    // The structure opened again in the views' column (as Open Relaxed Structure does) becomes the editor a run starts from.
    await vscode.window.showTextDocument(vscode.Uri.file(si), { viewColumn: vscode.ViewColumn.Two, preview: false });
    assert.equal(vscode.window.tabGroups.activeTabGroup.viewColumn, vscode.ViewColumn.Two, 'a run starts from the second column');
    assert.equal((await run('singlePoint', { uri })).status, 'ok');
    assert.equal((await run('tightbinding', { uri })).status, 'ok');
    const columns = vscode.window.tabGroups.all.map((g) => `${g.viewColumn}: ${g.tabs.map((t) => t.label).join(', ')}`);
    assert.equal(vscode.window.tabGroups.all.length, 2, columns.join(' | '));
  });

  test('the Structure Runs view is shown in a browser UI whose extension host runs Node (code-server, Codespaces)', async function () {
    if (!screenshotsSupported()) this.skip(); // needs the headless runner, a browser UI, to read the window
    await vscode.commands.executeCommand('workbench.view.explorer');
    const title = await ui({ op: 'read', selector: '.pane-header:has-text("Structure Runs") h3.title' });
    assert.equal(title?.toLowerCase(), 'structure runs'); // the pane header shows it in capitals (CSS)
  });

  test('Relax sends the document with its unsaved edits; the view plots energy and force; the run is listed', async function () {
    this.timeout(patience(90_000));
    // A copy outside the workspace: the test's edits never reach the fixture, whatever saves them.
    const copy = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'token-lens-relax-')), 'Si.vasp');
    fs.copyFileSync(path.join(vscode.workspace.workspaceFolders![0]!.uri.fsPath, 'Si.vasp'), copy);
    const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(copy), { preview: false });
    await editor.edit((e) => {
      e.replace(new vscode.Range(0, 0, 0, editor.document.lineAt(0).text.length), 'Si8 edited, not saved');
      e.replace(new vscode.Range(12, 2, 12, 20), '0.2700000000000000'); // one atom pushed off its site: the relax has work to do
    });
    const before = server.hits('/gnn_ff_dynamics/relax');
    const outcome = await run('relax');
    assert.equal(outcome.status, 'ok', outcome.message?.text);
    assert.equal(server.hits('/gnn_ff_dynamics/relax') - before, 1);
    const answer = outcome.response!.body.value!;
    assert.equal(answer.natoms, 8);
    assert.match(String(answer.final_poscar), /^Si8 edited, not saved/, 'the unsaved comment was sent');
    assert.equal(answer.converged, true);
    const r = await reportWhere(outcome.runId!, (x) => x.state === 'done', 'the relax view');
    assert.equal(r.kind, 'relax');
    assert.match(r.headline, /^Converged in \d+ steps/);
    assert.ok((answer.steps_taken as number) > 3, `relaxation steps: ${answer.steps_taken}`);
    assert.ok((answer.final_energy as number) < (answer.initial_energy as number), 'the energy went down');
    assert.ok(r.plots.length >= 2 && r.plots.every((p) => p.points > 0), JSON.stringify(r.plots));
    assert.ok(r.targets.includes('structure:open') && r.targets.includes('structure:compare'), r.targets.join());
    const listed = (await items()).find((i) => i.id === outcome.runId)!;
    assert.equal(listed.label, 'Relax · Si.vasp');
    assert.match(listed.description, /^done · \d+\.\d s · /);
    assert.equal(listed.contextValue, 'run.done.answered.options');
    await screenshotThemes(outcome.runId!, 'result-relax');
    const trajectory = await playTrajectory(outcome.runId!, 'trajectory-relax');
    assert.match(trajectory.caption, /^Step 0 · -?\d+\.\d{4} eV/, 'each relax frame is captioned with its energy');
    const restored = await vscode.commands.executeCommand<string[]>('tokenLens.structure.test', 'restore', {
      uri: `tokenlens-run:${outcome.runId}`,
    });
    assert.ok(restored?.includes(`tokenlens-run:${outcome.runId}`), 'the trajectory view comes back after a reload');
    await vscode.commands.executeCommand('tokenLens.structure.test', 'closeAll');
    await compareWithOriginal(outcome.runId!);
    // Save Result As: the raw answer as JSON, and a message that says where it went.
    const target = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'token-lens-run-')), 'relax.json');
    await vscode.commands.executeCommand('notifications.clearAll');
    await vscode.commands.executeCommand('tokenLens.runs.test', 'save', {
      runId: outcome.runId,
      target: vscode.Uri.file(target).toString(),
    });
    assert.equal(JSON.parse(fs.readFileSync(target, 'utf8')).final_energy, answer.final_energy);
    if (screenshotsSupported()) {
      let said = '';
      await waitFor(
        async () =>
          /Saved the Relax result to/.test(
            (said = (await ui({ op: 'html', selector: '.notifications-toasts .notification-list-item-message' })) ?? ''),
          ),
        10_000,
        () => `the save message; shown: ${said}`,
      );
      assert.ok(said.includes(target), `the message names the file: ${said}`);
      await screenshot('save-result-message');
      await vscode.commands.executeCommand('notifications.clearAll');
    }
  });

  test("Energy and Forces from a file that is not open (the Explorer), forces sorted; a row selects the atom's line", async () => {
    const folder = vscode.workspace.workspaceFolders![0]!.uri;
    const uri = vscode.Uri.joinPath(folder, 'CONTCAR.relax');
    const outcome = await run('singlePoint', { uri });
    assert.equal(outcome.status, 'ok', outcome.message?.text);
    const answer = outcome.response!.body.value!;
    assert.equal((answer.forces_eV_per_A as number[][]).length, 2);
    const r = await reportWhere(outcome.runId!, (x) => x.state === 'done', 'the single-point view');
    const forces = r.tables.find((t) => /force/i.test(t.title))!;
    assert.ok(forces && forces.rows.length === 2, JSON.stringify(r.tables));
    await screenshotThemes(outcome.runId!, 'result-single-point');
    await resultReport(outcome.runId!, 'click', { target: 'atom:1' });
    const editor = await waitFor(
      () => vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === uri.toString() && !e.selection.isEmpty),
      5000,
      'the atom line selected',
    );
    assert.equal(editor.selection.start.line, 9, 'atom 2 stands on line 10');
    assert.ok((await vscode.commands.executeCommand<string[]>('tokenLens.results.test', 'open'))?.includes(outcome.runId!));
    assert.ok(
      vscode.window.tabGroups.all.some((g) => g.activeTab?.label.startsWith('Single point')),
      'the result view stays in sight beside the POSCAR',
    );
  });

  test('a result whose species name is over its limit shows its view, shortened, with a note at the top', async () => {
    const uri = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0]!.uri, 'CONTCAR.relax');
    const first = await run('singlePoint', { uri });
    assert.equal(first.status, 'ok', first.message?.text);
    const answer = { ...first.response!.body.value!, species: ['Si'.padEnd(302, 'x'), 'Si'] };
    server.faults.next({
      kind: 'body',
      contentType: 'application/json',
      body: JSON.stringify(answer),
      path: '/gnn_ff_dynamics/single_point',
    });
    const outcome = await run('singlePoint', { uri });
    assert.equal(outcome.status, 'ok', outcome.message?.text);
    const r = await reportWhere(outcome.runId!, (x) => x.state === 'done', 'the single-point view');
    assert.equal(r.note, '1 value was shortened to fit the view: species[0] (302 characters).');
    assert.match(r.headline, /eV/, 'the energy is shown');
    const forces = r.tables.find((t) => /force/i.test(t.title));
    assert.equal(forces?.rows.length, 2, JSON.stringify(r.tables));
    await screenshot('result-fitted-note');
  });

  test('MD: energies and temperature against time; a running MD is cancelled at once', async function () {
    this.timeout(patience(90_000));
    await openWorkspaceFile('Si.vasp');
    server.faults.next({ kind: 'delay', ms: 8000, path: '/gnn_ff_dynamics/md' });
    const sent = server.hits('/gnn_ff_dynamics/md');
    const pending = run('md');
    const running = await waitFor(
      async () => (await items()).find((i) => i.label === 'Molecular dynamics · Si.vasp' && i.contextValue === 'run.running'),
      5000,
      'a running MD in the list',
    );
    // Cancelled once the server holds it: a request cancelled before it was sent left the delay to the next MD (8 s).
    await waitFor(() => server.hits('/gnn_ff_dynamics/md') > sent, 5000, 'the MD request at the server');
    const started = Date.now();
    await vscode.commands.executeCommand('tokenLens.runs.cancel', { id: running.id });
    const cancelled = await pending;
    assert.equal(cancelled.status, 'cancelled');
    assert.ok(Date.now() - started < 2000, 'cancel aborts the request at once');
    assert.equal((await items()).find((i) => i.id === running.id)!.contextValue, 'run.cancelled.options');

    const outcome = await run('md');
    assert.equal(outcome.status, 'ok', outcome.message?.text);
    const r = await reportWhere(outcome.runId!, (x) => x.state === 'done', 'the MD view');
    assert.ok(r.plots.length >= 2, JSON.stringify(r.plots));
    assert.ok(
      r.plots.some((p) => p.series >= 3),
      'total, kinetic and potential energy',
    );
    await screenshotThemes(outcome.runId!, 'result-md');
    await playTrajectory(outcome.runId!, 'trajectory-md');
    await vscode.commands.executeCommand('tokenLens.structure.test', 'closeAll');
    assert.equal(outcome.response!.body.value!.ensemble, 'nve', 'NVE unless the setting asks for a thermostat');
  });

  test("Settings send the scientist's options: md.ensemble nvt asks for a thermostat, relax.relaxCell relaxes the cell too", async function () {
    this.timeout(patience(60_000));
    await openWorkspaceFile('Si.vasp');
    await settings().update('md.ensemble', 'nvt', vscode.ConfigurationTarget.Global);
    await settings().update('relax.relaxCell', true, vscode.ConfigurationTarget.Global);
    try {
      const md = await run('md');
      assert.equal(md.status, 'ok', md.message?.text);
      assert.equal(md.response!.body.value!.ensemble, 'nvt');
      assert.match(String(md.response!.body.value!.method), /Langevin thermostat/);
      const relaxed = await run('relax');
      assert.equal(relaxed.status, 'ok', relaxed.message?.text);
      assert.equal(relaxed.response!.body.value!.relax_cell, true);
      assert.match(String(relaxed.response!.body.value!.method), /UnitCellFilter/);
    } finally {
      await settings().update('md.ensemble', undefined, vscode.ConfigurationTarget.Global);
      await settings().update('relax.relaxCell', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  test('Parameter settings: sent when set, refused out of range before anything is sent; Run Again sends what the run sent', async function () {
    this.timeout(patience(60_000));
    await openWorkspaceFile('Si.vasp');
    try {
      await settings().update('relax.fmax', 0.1, vscode.ConfigurationTarget.Global);
      await settings().update('relax.steps', 30, vscode.ConfigurationTarget.Global);
      const relaxed = await run('relax');
      assert.equal(relaxed.status, 'ok', relaxed.message?.text);
      assert.equal(relaxed.response!.body.value!.fmax, 0.1);
      assert.equal(relaxed.response!.body.value!.max_steps, 30);
      const shown = await reportWhere(relaxed.runId!, (x) => x.state === 'done', 'the relax view');
      assert.deepEqual(shown.tables.find((t) => t.title === 'Parameters')?.rows.slice(0, 2), [
        'fmax | 0.1 eV/Å | 0.1 eV/Å',
        'steps | 30 steps | 30 steps',
      ]);

      // Run Again repeats the request as it was, whatever the settings say now.
      await settings().update('relax.fmax', undefined, vscode.ConfigurationTarget.Global);
      const again = await vscode.commands.executeCommand<Outcome>('tokenLens.runs.again', { id: relaxed.runId });
      assert.equal(again.status, 'ok', again.message?.text);
      assert.equal(again.response!.body.value!.fmax, 0.1, 'the fmax the first run sent');

      await settings().update('md.steps', 20, vscode.ConfigurationTarget.Global);
      await settings().update('md.interval', 5, vscode.ConfigurationTarget.Global);
      const md = await run('md');
      assert.equal(md.status, 'ok', md.message?.text);
      assert.equal(md.response!.body.value!.steps, 20);
      assert.equal(md.response!.body.value!.interval, 5);

      const before = server.hits('/gnn_ff_dynamics/relax');
      await settings().update('relax.fmax', 50, vscode.ConfigurationTarget.Global);
      const refused = await run('relax');
      assert.equal(refused.status, 'invalid');
      assert.match(refused.message!.text, /fmax must be a number from 0\.001 to 10 eV\/Å\. \(the setting tokenLens\.relax\.fmax is 50\)/);
      assert.equal(server.hits('/gnn_ff_dynamics/relax'), before, 'nothing was sent');
    } finally {
      for (const key of ['relax.fmax', 'relax.steps', 'md.steps', 'md.interval'])
        await settings().update(key, undefined, vscode.ConfigurationTarget.Global);
    }
  });

  test('Relax with Options…: the quick form edits fmax and steps, refuses a bad value, sends them, remembers them; the view lists them', async function () {
    if (!screenshotsSupported()) this.skip(); // needs the headless runner to type into the form
    this.timeout(patience(90_000));
    await vscode.commands.executeCommand('notifications.clearAll');
    const si = (await openWorkspaceFile('Si.vasp')).document;
    // One atom pushed off its site, so that the relaxation has work to do and the step limit shows.
    const rattled = { uri: si.uri, text: si.getText().replace(/^(\s*)0\.0+(\s+)0\.0+(\s+)0\.0+\s*$/m, '$10.03$20.02$30.01') };
    assert.notEqual(rattled.text, si.getText());
    // The runner's Enter returns once the list has given way to the input box in the same widget (or the reverse).
    const type = (text: string) => ui({ op: 'type', text, enter: true, inputBox: true });
    const pending = vscode.commands.executeCommand<Outcome>('tokenLens.relaxWithOptions', rattled);
    await type('fmax');
    await type('20'); // out of range (0.001 to 10): the box stays open with its message, nothing is sent
    await screenshot('relax-with-options-invalid');
    await ui({ op: 'type', text: 'e-3', enter: true, inputBox: true }); // typed on: 20e-3, i.e. 0.02 eV/Å
    await type('steps');
    await type('3');
    await screenshot('relax-with-options-form');
    await type('Run');
    const outcome = await pending;
    assert.equal(outcome.status, 'ok', outcome.message?.text);
    const answer = outcome.response!.body.value!;
    assert.equal(answer.fmax, 0.02, 'the request carried fmax 0.02 (the server echoes it)');
    assert.equal(answer.max_steps, 3, 'the request carried steps 3');
    assert.equal(answer.steps_taken, 3, 'stopped at the step limit sent');
    assert.equal(answer.converged, false);
    const shown = await reportWhere(outcome.runId!, (x) => x.state === 'done', 'the relax view');
    assert.match(shown.headline, /^Not converged after 3 steps \(the step limit\)/);
    assert.deepEqual(shown.tables.find((t) => t.title === 'Parameters')?.rows, [
      'fmax | 0.02 eV/Å | 0.02 eV/Å',
      'steps | 3 steps | 3 steps',
      'optimizer | not sent (default) | FIRE',
      'relax_cell | not sent (default) | false',
    ]);
    await screenshot('result-relax-parameters');

    // The form remembers this workspace's values: Run at once sends the same.
    const second = vscode.commands.executeCommand<Outcome>('tokenLens.relaxWithOptions', rattled);
    await type('Run');
    const repeated = await second;
    assert.equal(repeated.status, 'ok', repeated.message?.text);
    assert.equal(repeated.response!.body.value!.fmax, 0.02);
    assert.equal(repeated.response!.body.value!.max_steps, 3);
  });

  test('Molecular Dynamics with Options…: a temperature, steps and the ensemble from its pick list; Run Again with Options… starts from what the run sent', async function () {
    if (!screenshotsSupported()) this.skip(); // needs the headless runner to type into the form
    this.timeout(patience(90_000));
    await vscode.commands.executeCommand('notifications.clearAll');
    await openWorkspaceFile('Si.vasp');
    const type = (text: string) => ui({ op: 'type', text, enter: true, inputBox: true });
    const pending = vscode.commands.executeCommand<Outcome>('tokenLens.mdWithOptions');
    await type('temperature');
    await type('600');
    await type('steps');
    await type('20');
    await type('ensemble');
    await type('nvt'); // the pick list of nve and nvt
    await type('Run');
    const outcome = await pending;
    assert.equal(outcome.status, 'ok', outcome.message?.text);
    const answer = outcome.response!.body.value!;
    assert.deepEqual([answer.temperature, answer.steps, answer.ensemble, answer.timestep_fs], [600, 20, 'nvt', 1]);
    const shown = await reportWhere(outcome.runId!, (x) => x.state === 'done', 'the MD view');
    assert.deepEqual(shown.tables.find((t) => t.title === 'Parameters')?.rows, [
      'temperature | 600 K | 600 K',
      'timestep | not sent (default) | 1 fs',
      'steps | 20 steps | 20 steps',
      'interval | not sent (default) | 1 step',
      'ensemble | nvt | nvt',
    ]);
    await screenshot('result-md-parameters');

    // From the Runs view: the form opens on the run's own values; one change, and the rest is sent as before.
    const again = vscode.commands.executeCommand<Outcome>('tokenLens.runs.againWithOptions', { id: outcome.runId });
    await type('steps');
    await type('10');
    await type('Run');
    const second = await again;
    assert.equal(second.status, 'ok', second.message?.text);
    const value = second.response!.body.value!;
    assert.deepEqual([value.temperature, value.steps, value.ensemble], [600, 10, 'nvt']);
  });

  test('Band structure: bands along the k-path with labels and the gap stated; the k-path density is checked first', async () => {
    await openWorkspaceFile('NaCl.vasp');
    await settings().update('tightbinding.kpathDensity', 0, vscode.ConfigurationTarget.Global);
    const before = server.hits('/tightbinding/compute');
    const refused = await run('tightbinding');
    assert.equal(refused.status, 'invalid');
    assert.match(refused.message!.text, /whole number from 1 to 1000/);
    assert.equal(server.hits('/tightbinding/compute'), before, 'nothing was sent');
    await settings().update('tightbinding.kpathDensity', 8, vscode.ConfigurationTarget.Global);
    const outcome = await run('tightbinding');
    assert.equal(outcome.status, 'ok', outcome.message?.text);
    assert.equal(outcome.response!.body.value!.kpath_density, 8);
    const r = await reportWhere(outcome.runId!, (x) => x.state === 'done', 'the band-structure view');
    assert.match(r.headline, /gap|Metal/i);
    assert.ok(r.plots.length >= 1 && r.plots[0]!.series >= 1, JSON.stringify(r.plots));
    await screenshotThemes(outcome.runId!, 'result-bands');
    // Silicon has Vogl's sp3s* parameters: a semiconductor with its indirect gap, not a metal. Its two-atom primitive
    // cell (POSCAR) has the same k-path and gap as the 8-atom Si.vasp, and its 8×8×8 density of states diagonalises
    // 10×10 Hamiltonians instead of 40×40: 1.5 s instead of 13 s on the reference server here.
    await openWorkspaceFile('POSCAR');
    await settings().update('tightbinding.kpathDensity', undefined, vscode.ConfigurationTarget.Global); // the default, 20
    const si = await run('tightbinding');
    assert.equal(si.status, 'ok', si.message?.text);
    const siView = await reportWhere(si.runId!, (x) => x.state === 'done', 'the silicon band-structure view');
    assert.match(siView.headline, /^Indirect gap 1\.1\d\d eV/);
    assert.ok(
      siView.plots.some((p) => /^Density of states \(σ 0\.1 eV, 8×8×8 k-mesh\)/.test(p.title)),
      JSON.stringify(siView.plots),
    );
    assert.match(String(si.response!.body.value!.method), /sp3s\* tight binding of Vogl, Hjalmarson and Dow/);
    await screenshot('result-bands-si');
  });

  test('A file with errors is not sent: the user is told why and taken to the first problem', async () => {
    const before = server.hits('/gnn_ff_dynamics/relax');
    const folder = vscode.workspace.workspaceFolders![0]!.uri;
    const outcome = await run('relax', { uri: vscode.Uri.joinPath(folder, 'POSCAR_broken') });
    assert.equal(outcome.status, 'invalid');
    assert.equal(
      outcome.message!.text,
      "POSCAR_broken has 1 error, so Token Lens did not send it. Line 7: the counts line must hold positive whole numbers, one per species (found 'two')",
    );
    assert.equal(server.hits('/gnn_ff_dynamics/relax'), before);
    const editor = vscode.window.activeTextEditor!;
    assert.match(editor.document.uri.path, /POSCAR_broken$/);
    assert.equal(editor.document.getText(editor.selection), 'two');
  });

  test('Failing runs: 401, 500 and a timeout end in a message and a failed entry', async () => {
    await openWorkspaceFile('GaAs.vasp');
    server.faults.next({ kind: 'status', status: 401, detail: 'Invalid API key.', path: '/gnn_ff_dynamics/single_point' });
    const unauthorized = await run('singlePoint', { show: false });
    assert.equal(unauthorized.errorKind, 'unauthorized');
    assert.deepEqual(unauthorized.message!.actions, ['Enter new API key']);

    server.faults.next({ kind: 'status', status: 500, detail: 'boom', path: '/gnn_ff_dynamics/single_point' });
    await settings().update('service.maxRetries', 0, vscode.ConfigurationTarget.Global);
    const failed = await run('singlePoint');
    assert.equal(failed.errorKind, 'server');
    const r = await reportWhere(failed.runId!, (x) => x.state === 'failed', 'the failed view');
    assert.ok(r.targets.includes('retry'), r.targets.join());
    // The same run again replaces the failed tab instead of opening a second one under the same title.
    const resultTabs = () =>
      vscode.window.tabGroups.all
        .flatMap((g) => g.tabs)
        .filter((t) => t.input instanceof vscode.TabInputWebview && t.input.viewType.includes('tokenLens.result'));
    const again = await run('singlePoint');
    assert.equal(again.status, 'ok', again.message?.text);
    await waitFor(
      () => (resultTabs().length === 1 ? true : undefined),
      10_000,
      `one result tab, not ${resultTabs()
        .map((t) => t.label)
        .join(', ')}`,
    );

    await settings().update('service.timeoutSeconds', 1, vscode.ConfigurationTarget.Global);
    server.faults.next({ kind: 'delay', ms: 3000, path: '/gnn_ff_dynamics/single_point' });
    const timedOut = await run('singlePoint', { show: false });
    assert.equal(timedOut.errorKind, 'timeout');
    assert.match(timedOut.message!.text, /timeoutSeconds/);
    const states = (await items())
      .filter((i) => [unauthorized.runId, failed.runId, timedOut.runId].includes(i.id))
      .map((i) => i.contextValue);
    assert.deepEqual(states, ['run.failed', 'run.failed', 'run.failed']);
    await settings().update('service.maxRetries', undefined, vscode.ConfigurationTarget.Global);
  });
});
