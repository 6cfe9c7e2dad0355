import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { TokenLensTestApi } from '../../src/api';
import type { RenderedReport } from '../../src/webviews/inspector/protocol';
import { INSPECTOR_SAMPLE as SAMPLE, inspectorText } from '../bench/textgen';
import { formatScaleRun, inspectorTab, open, openFirstPaint, openOn, post, receive, scaleRun, state, TEST, until } from './inspectorDriver';
import { activateExtension, closeAllEditors, openDocument, patience, resetSettings, screenshot, sleep, waitFor } from './util';

suite('Inspector', () => {
  let api: TokenLensTestApi;

  suiteSetup(async () => {
    api = await activateExtension<TokenLensTestApi>();
  });

  teardown(async () => {
    await vscode.commands.executeCommand(TEST, 'close');
    await resetSettings('tokenLens', ['tokenizer']);
    await closeAllEditors();
  });

  suiteTeardown(async () => {
    await vscode.workspace.getConfiguration('workbench').update('colorTheme', undefined, vscode.ConfigurationTarget.Global);
  });

  test('opens beside the editor, resolves once rendered, and shows the counts and every token', async () => {
    const editor = await openDocument(SAMPLE, 'markdown');
    const report = await open();
    assert.ok(report, 'openInspector resolves with the rendered report');
    const tab = inspectorTab();
    assert.ok(tab, 'a Token Inspector tab is open');
    assert.equal(tab.group.viewColumn, vscode.ViewColumn.Two, 'beside the editor');
    assert.equal(vscode.window.activeTextEditor, editor, 'the editor keeps focus');
    const expected = await api.tokenize(SAMPLE);
    assert.equal(report.nTokens, expected.n_tokens);
    assert.equal(report.nChars, expected.n_chars);
    assert.match(
      report.header,
      new RegExp(
        `^${expected.n_tokens} tokens · ${expected.n_chars} chars · ${(expected.n_chars / expected.n_tokens).toFixed(2)} chars/token`,
      ),
    );
    assert.equal(report.segments.join(''), SAMPLE, 'segments concatenate to the document');
    const { state: s } = await state();
    assert.deepEqual(s!.ids, expected.token_ids, "the ids are the engine's");
    assert.equal(s!.scope, 'document');
    assert.ok(report.domRows > 0 && report.domRows <= report.rows);
    assert.ok(!report.domText.includes('\ufffd'), 'no replacement character on screen');
  });

  test('characters split across tokens are one segment with all their ids; hover shows ids, bytes and range', async () => {
    const text = 'a 👨‍👩‍👧 🇫🇷 日本語 👍';
    await openDocument(text);
    const report = await openOn(text);
    for (const whole of [' 👨‍👩‍👧', ' 🇫🇷', ' 👍'])
      assert.ok(report.segments.includes(whole), `${JSON.stringify(whole)} is one segment: ${JSON.stringify(report.segments)}`);
    const thumbs = report.segments.indexOf(' 👍');
    await post({ type: 'test', action: 'hover', segment: thumbs });
    const s = await until((st) => st.report!.tooltip.includes('bytes'), 'the hover card');
    const tip = s.report!.tooltip;
    const start = text.indexOf(' 👍');
    assert.match(tip, /id \d+ {2}bytes 20 f0 9f 91/, tip);
    assert.match(tip, /id \d+ {2}bytes 8d/, tip);
    assert.match(tip, /2 tokens share these characters/);
    assert.ok(tip.includes(`line:column 1:${start + 1}–1:${start + 4}`), tip);
    // Keyboard focus shows the same card.
    await post({ type: 'test', action: 'focus', segment: 0 });
    await until((st) => st.report!.tooltip.startsWith('"a"'), 'the focus card for the first token');
  });

  test("the hover gives the document's line:column, also when a selection is inspected", async () => {
    const editor = await openDocument('first line\nsecond line here\nthird');
    await openOn('first line\nsecond line here\nthird');
    editor.selection = new vscode.Selection(1, 7, 2, 5);
    const s = await until(
      (st) => st.state!.scope === 'selection' && st.report!.segments.join('') === 'line here\nthird',
      'the selection inspected',
    );
    assert.equal(s.report!.segments[0], 'line');
    await post({ type: 'test', action: 'hover', segment: 0 });
    const tip = (await until((st) => st.report!.tooltip.includes('line:column'), 'the hover card')).report!.tooltip;
    assert.ok(tip.includes('line:column 2:8–2:12'), tip);
    const third = s.report!.segments.indexOf('third');
    await post({ type: 'test', action: 'hover', segment: third });
    const next = (await until((st) => st.report!.tooltip.startsWith('"third"'), 'the hover card of "third"')).report!.tooltip;
    assert.ok(next.includes('line:column 3:1–3:6'), next);
  });

  test('narrow compare panes: heads and id lists wrap, nothing is cut off; a document opens at the top, not at the cursor', async () => {
    const text = Array.from({ length: 300 }, (_, i) => `Line ${i}: naïve café 👍 tokens_with_long_ids ${'x'.repeat(i % 40)}`).join('\n');
    const editor = await openDocument(text);
    editor.selection = new vscode.Selection(250, 0, 250, 0);
    await open();
    const s = await until((st) => st.report!.nChars === [...text].length, 'the long document');
    assert.equal(s.report!.panes[0]!.scrollTop, 0, 'opens at the top');
    await post({ type: 'test', action: 'toggle', option: 'showIds' });
    await post({ type: 'test', action: 'compare', value: 'model-4o (o200k)' });
    await until((st) => st.report!.compareTokens !== null && st.report!.options.showIds, 'ids and the comparison');
    // Two more editor groups beside the text: the inspector gets a quarter of the window, each pane an eighth.
    await vscode.commands.executeCommand('workbench.action.focusFirstEditorGroup');
    await vscode.commands.executeCommand('workbench.action.splitEditorRight');
    await vscode.commands.executeCommand('workbench.action.focusFirstEditorGroup');
    await vscode.commands.executeCommand('workbench.action.splitEditorRight');
    await sleep(500);
    await post({ type: 'test', action: 'report' });
    await until(
      (st) => st.report!.panes.length === 2 && st.report!.panes.every((p) => !p.headClipped && !p.rowsClipped),
      'both panes without anything cut off',
      10_000,
    );
    await screenshot('inspector-compare-narrow');
  });

  test('one token, one character: the header and the pane say so in the singular', async () => {
    await openDocument('a');
    const report = await openOn('a');
    assert.match(report.header, /^1 token · 1 char · 1\.00 chars\/token$/);
    assert.equal(report.panes[0]!.head, 'cl100k_base | 1 token · 1.00 chars/token | Copy ids');
  });

  test('the header shows the context-window gauge the status bar shows, and follows the setting', async () => {
    const settings = vscode.workspace.getConfiguration('tokenLens');
    try {
      await openDocument('word '.repeat(10).trim());
      await settings.update('contextWindow.size', 12, vscode.ConfigurationTarget.Global);
      const report = await openOn('word '.repeat(10).trim());
      assert.match(report.header, /^10 tokens · .* · context window 10 \/ 12 · 83\.3 %$/);
      await settings.update('contextWindow.size', 8, vscode.ConfigurationTarget.Global);
      await until((st) => st.report!.header.endsWith('context window 10 / 8 · 125.0 %'), 'the header to follow the window');
    } finally {
      await settings.update('contextWindow.size', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  test('user text is escaped: markup in a token shows as text and injects nothing', async () => {
    const text = 'x <img src=x onerror=alert(1)> </script><script>alert(2)</script> <b>bold</b> &amp;';
    await openDocument(text, 'html');
    const report = await openOn(text);
    assert.equal(report.segments.join(''), text);
    assert.ok(report.domText.includes('<img src=x onerror=alert(1)>'), report.domText);
    assert.ok(report.domText.includes('</script><script>'), report.domText);
    assert.ok(report.domText.includes('&amp;'));
    assert.deepEqual(report.injected, [], 'no element was created from user text');
    await screenshot('inspector-escaping');
  });

  test('click a token: the editor selects its text; moving the editor selection marks tokens', async () => {
    const text = 'alpha beta gamma delta';
    const editor = await openDocument(text);
    const report = await openOn(text);
    const beta = report.segments.indexOf(' beta');
    assert.ok(beta > 0, JSON.stringify(report.segments));
    await post({ type: 'test', action: 'click', segment: beta });
    await waitFor(
      () => editor.selection.isEqual(new vscode.Selection(0, 5, 0, 10)),
      5000,
      () => `selection of " beta", it is ${JSON.stringify(editor.selection)}`,
    );
    let s = await until((st) => st.report!.marked.includes(beta), 'the clicked token marked');
    assert.equal(s.state!.scope, 'document', 'a click does not narrow what is inspected');
    assert.equal(s.report!.segments.join(''), text);
    // Cursor into "gamma": that token is marked.
    const gamma = report.segments.indexOf(' gamma');
    editor.selection = new vscode.Selection(0, 13, 0, 13);
    await until((st) => st.report!.marked.length === 1 && st.report!.marked[0] === gamma, 'the token under the cursor marked');
    // A real selection is inspected on its own.
    editor.selection = new vscode.Selection(0, 6, 0, 16);
    s = await until((st) => st.state!.scope === 'selection' && st.report!.segments.join('') === 'beta gamma', 'the selection inspected');
    assert.match(s.report!.note, /selection/i);
    assert.equal(s.report!.nTokens, await api.count('beta gamma'));
  });

  test('live: follows edits and editor switches, and the tokenizer setting', async () => {
    const editor = await openDocument('one two');
    await openOn('one two');
    await editor.edit((edit) => edit.insert(new vscode.Position(0, 7), ' three 👍'));
    await until((s) => s.report!.segments.join('') === 'one two three 👍', 'the edit shown');
    await openDocument('第二个文档', 'plaintext');
    await until((s) => s.report!.segments.join('') === '第二个文档', 'the other editor shown');
    await vscode.workspace.getConfiguration('tokenLens').update('tokenizer', 'o200k_base', vscode.ConfigurationTarget.Global);
    const s = await until((st) => st.state!.tokenizer === 'o200k_base', 'the o200k_base tokenization');
    assert.equal(s.report!.nTokens, await api.count('第二个文档', 'o200k_base'));
    // The picker in the panel writes the setting.
    await receive({ type: 'setTokenizer', tokenizer: 'gpt2' });
    await waitFor(
      () => vscode.workspace.getConfiguration('tokenLens').get('tokenizer') === 'gpt2',
      5000,
      'the setting to follow the picker',
    );
    await until((st) => st.state!.tokenizer === 'gpt2', 'the gpt2 tokenization');
  });

  test('a language change, which closes and reopens the document, does not lose it', async () => {
    const editor = await openDocument('plain words');
    await openOn('plain words');
    const reopened = await vscode.languages.setTextDocumentLanguage(editor.document, 'markdown');
    const active = await waitFor(
      () => (vscode.window.activeTextEditor?.document === reopened ? vscode.window.activeTextEditor : undefined),
      5000,
      'the reopened document in the editor',
    );
    await active.edit((edit) => edit.insert(new vscode.Position(0, 0), '# '));
    await until((s) => s.report!.segments.join('') === '# plain words', 'the edit made after the language change');
  });

  test('toggles: ids inline, visible whitespace, and a side-by-side comparison; options survive the webview being recreated', async () => {
    const text = 'Hello\tworld  \nsecond line';
    await openDocument(text);
    await openOn(text);
    await post({ type: 'test', action: 'toggle', option: 'showIds' });
    await post({ type: 'test', action: 'toggle', option: 'showWhitespace' });
    const ids = (await api.tokenize(text)).token_ids;
    let s = await until((st) => st.options.showIds && st.options.showWhitespace && st.report!.options.showWhitespace, 'both toggles on');
    assert.ok(s.report!.domText.includes(String(ids[0])), `ids inline: ${s.report!.domText}`);
    assert.ok(
      s.report!.domText.includes('→') && s.report!.domText.includes('·') && s.report!.domText.includes('↵'),
      `whitespace symbols: ${s.report!.domText}`,
    );
    await post({ type: 'test', action: 'compare', value: 'o200k_base' });
    s = await until((st) => st.report!.compareTokens !== null, 'the comparison pane');
    assert.equal(s.report!.compareTokens, await api.count(text, 'o200k_base'));
    assert.match(s.report!.header, /o200k_base: \d+ tokens/);
    assert.deepEqual(s.state!.compareIds, (await api.tokenize(text, 'o200k_base')).token_ids);
    await screenshot('inspector-compare');
    // Hide the panel (its webview is destroyed) and show it again: the page restores its options.
    const seq = s.report!.seq;
    await vscode.commands.executeCommand('workbench.action.files.newUntitledFile');
    await vscode.commands.executeCommand('workbench.action.moveEditorToRightGroup');
    await sleep(300);
    await open();
    s = await until((st) => st.report!.seq > seq && st.report!.compareTokens !== null, 'the restored panel');
    assert.deepEqual(s.report!.options, { showIds: true, showWhitespace: true, compare: 'o200k_base' });
  });

  test('restored after a reload: the serializer brings the panel back with its options (and ignores bad state)', async () => {
    const text = 'restore me 👍';
    await openDocument(text);
    const options = { showIds: true, showWhitespace: false, compare: 'gpt2' };
    const report = await vscode.commands.executeCommand<RenderedReport>(TEST, 'restore', { options });
    assert.ok(report);
    assert.deepEqual(report.options, options);
    assert.equal(report.compareTokens, await api.count(text, 'gpt2'));
    assert.equal(report.segments.join(''), text);
    const bad = await vscode.commands.executeCommand<RenderedReport>(TEST, 'restore', {
      options: { showIds: '<script>', compare: 'rm -rf' },
    });
    assert.deepEqual(bad.options, { showIds: false, showWhitespace: false, compare: null });
  });

  test('copy token ids as JSON', async () => {
    const text = 'copy these ids';
    await openDocument(text);
    await openOn(text);
    await vscode.env.clipboard.writeText('');
    await receive({ type: 'copyIds', pane: 0 });
    await waitFor(async () => (await vscode.env.clipboard.readText()) !== '', 5000, 'the clipboard');
    assert.deepEqual(JSON.parse(await vscode.env.clipboard.readText()), (await api.tokenize(text)).token_ids);
  });

  test('unknown or malformed messages are ignored on both sides', async () => {
    const text = 'still fine';
    await openDocument(text);
    const before = await openOn(text);
    for (const junk of [
      null,
      1,
      'ready',
      { type: 'select', seq: before.seq, start: 9, end: 2 },
      { type: 'select', seq: 999, start: 0, end: 3 },
      { type: 'copyIds', pane: 7 },
      { type: 'setTokenizer', tokenizer: 'not-a-tokenizer' },
      { type: 'eval', code: 'x' },
      { type: 'rendered', seq: 1 },
      { type: 'painted', seq: 1 },
    ]) {
      await receive(junk);
    }
    for (const junk of [
      null,
      { type: 'render', seq: 99, text: '<img src=x onerror=alert(1)>' },
      { type: 'html', html: '<img src=x onerror=alert(1)>' },
      { type: 'mark', seq: before.seq, start: 5, end: 1, reveal: true },
      { type: 'empty' },
    ]) {
      await post(junk);
    }
    await post({ type: 'test', action: 'report' });
    await sleep(300);
    const s = await state();
    assert.equal(s.report!.segments.join(''), text, 'the page still shows the document');
    assert.deepEqual(s.report!.injected, []);
    assert.equal(vscode.workspace.getConfiguration('tokenLens').get('tokenizer'), 'cl100k_base');
    assert.ok(vscode.window.activeTextEditor!.selection.isEmpty, 'no selection was made from a malformed message');
  });

  test('an empty state when no text editor is open', async () => {
    await closeAllEditors();
    const report = await open();
    assert.ok(report);
    assert.match(report.note, /Open a text editor/);
    assert.equal(report.nTokens, 0);
  });

  for (const [theme, name] of [
    ['Default Light Modern', 'inspector-light'],
    ['Default Dark Modern', 'inspector-dark'],
    ['Default High Contrast', 'inspector-high-contrast'],
  ] as const) {
    test(`screenshot in ${theme}: English, code, emoji and CJK highlighted`, async () => {
      await vscode.workspace.getConfiguration('workbench').update('colorTheme', theme, vscode.ConfigurationTarget.Global);
      await openDocument(SAMPLE, 'markdown');
      const report = await openOn(SAMPLE);
      const expected = theme.includes('Light') ? 'vscode-light' : theme.includes('High') ? 'vscode-high-contrast' : 'vscode-dark';
      await until((s) => s.report!.theme.includes(expected), `the ${expected} body class`);
      const emoji = report.segments.findIndex((seg) => seg.includes('👨‍👩‍👧'));
      await post({ type: 'test', action: 'hover', segment: emoji });
      await until((s) => s.report!.tooltip.includes('bytes'), 'the hover card');
      await screenshot(name);
    });
  }

  test('scale: 50,000 characters and 1 MB render every token, keep only the rows in view in the DOM, follow an edit and scroll', async function () {
    this.timeout(patience(120_000));
    for (const size of [50_000, 1_000_000]) {
      const run = await scaleRun(size);
      const text = inspectorText(size);
      assert.equal(run.report.nChars, [...text].length, `${size}: all characters`);
      assert.equal(run.report.nTokens, await api.count(text), `${size}: all tokens`);
      assert.ok(run.report.domRows < 200, `${size}: only the rows in view are in the DOM (${run.report.domRows} of ${run.report.rows})`);
      assert.equal(run.edited.nTokens, await api.count(`x${text}`), `${size}: the edit re-rendered`);
      assert.equal(run.scroll.frames, 120, `${size}: every scroll frame ran`);
      assert.ok(
        run.scroll.rebuilt < run.scroll.frames,
        `${size}: scrolling rebuilt the DOM ${run.scroll.rebuilt} times in ${run.scroll.frames} frames`,
      );
      // Timing is the benchmark's business (npm run bench); the log keeps the numbers of this run.
      console.log(`[inspector-scale] ${formatScaleRun(run)}`);
    }
  });

  test('a 1 MB document shows the part in view first, with the totals pending, then the complete totals', async function () {
    this.timeout(patience(120_000));
    const lines = inspectorText(1_000_000).split('\n');
    const middle = lines.length >> 1;
    const marker = 'Marker line in view: 4242 zebras';
    lines[middle] = marker;
    const text = lines.join('\n');
    const editor = await openDocument(text);
    editor.selection = new vscode.Selection(middle, 0, middle, 0);
    editor.revealRange(new vscode.Range(middle, 0, middle, 0), vscode.TextEditorRevealType.AtTop);
    await waitFor(
      () => {
        const visible = vscode.window.activeTextEditor?.visibleRanges[0];
        return visible && visible.start.line <= middle && visible.end.line > middle;
      },
      5000,
      () => `the editor to scroll to line ${middle}: ${JSON.stringify(vscode.window.activeTextEditor?.visibleRanges)}`,
    );

    const { first, firstMs, settled } = await openFirstPaint();
    console.log(
      `[inspector-first-paint] 1 MB: first paint ${firstMs} ms after the command, ${first.sinceReadyMs} ms after the page was ready`,
    );
    assert.match(
      first.header,
      new RegExp(`^Counting tokens… \\(showing [\\d,]+ of ${text.length.toLocaleString('en-US')} characters\\)$`),
      'the header says the totals are pending',
    );
    assert.match(first.panes[0]!.head, /counting…/, 'the pane head says its count is pending');
    assert.ok(first.domText.includes(marker), `the part in view is on screen first: ${JSON.stringify(first.domText.slice(0, 200))}`);
    assert.ok(first.nChars < 300_000, `only the part around the view is tokenized first (${first.nChars} characters)`);
    await screenshot('inspector-first-paint-pending');
    // The rest may come in while the screenshot is taken: say which state it caught.
    const shot = await vscode.commands.executeCommand<RenderedReport | undefined>(TEST, 'painted');
    console.log(
      `[inspector-first-paint] the screenshot shows ${shot?.header.startsWith('Counting') ? 'the pending state' : 'the complete totals'}`,
    );

    const report = (await settled)!;
    const full = await state();
    assert.equal(report.nTokens, await api.count(text), 'then every token');
    assert.equal(report.nChars, [...text].length, 'and every character');
    assert.doesNotMatch(report.header, /Counting/, `the totals are in: ${report.header}`);
    assert.ok(report.header.startsWith(`${report.nTokens.toLocaleString('en-US')} tokens`), report.header);
    assert.doesNotMatch(report.panes[0]!.head, /counting…/);
    assert.ok(report.domText.includes(marker), 'the part in view stays in view once the rest is in');
    assert.equal(full.state!.base, 0, 'offsets map to the whole document again');
    assert.equal(full.state!.length, text.length);
    assert.deepEqual(full.state!.ids, (await api.tokenize(text)).token_ids, 'every id, in order');

    // Another tokenizer: the part in view first again, then the whole document under it.
    await vscode.workspace.getConfiguration('tokenLens').update('tokenizer', 'o200k_base', vscode.ConfigurationTarget.Global);
    const switched = await until((st) => st.state!.tokenizer === 'o200k_base', 'the o200k_base render', 60_000);
    assert.equal(switched.report!.nTokens, await api.count(text, 'o200k_base'));
    assert.ok(switched.report!.domText.includes(marker), 'what the editor shows is still in view');
  });
});
