/**
 * Closed models (issue 21) in the editor: gemini (estimate) is chosen like any tokenizer, the status
 * bar shows ≈ round(o200k_base × 1.08) with its method in the tooltip, Set Context Window marks Gemini's
 * window as typical, and the inspector and token boundaries refuse it rather than show o200k_base's tokens.
 * claude (estimate) the same, with ai-tokenizer's own Claude count (its claude encoding × 1.1) as the expected number.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { TokenLensTestApi } from '../../src/api';
import {
  activateExtension,
  aiTokenizerClaude,
  closeAllEditors,
  openDocument,
  resetSettings,
  screenshot,
  screenshotsSupported,
  ui,
  waitFor,
} from './util';
import * as inspector from './inspectorDriver';

const GEMINI = 'gemini (estimate)';
const CLAUDE = 'claude (estimate)';
const TEXT = 'Closed models have no public tokenizer, so Token Lens estimates: ' + 'the quick brown fox, 東京, 🎉; '.repeat(30);

suite('Closed models (estimates)', () => {
  let api: TokenLensTestApi;

  suiteSetup(async () => {
    api = await activateExtension<TokenLensTestApi>();
  });

  teardown(async () => {
    await vscode.commands.executeCommand('tokenLens.toggleTokenBoundaries', false);
    await resetSettings('tokenLens', ['tokenizer', 'contextWindow.size']);
    await closeAllEditors();
  });

  /** Chooses the estimate and waits for the status bar to show it on TEXT. */
  async function showEstimate(name: string): Promise<void> {
    await vscode.commands.executeCommand('tokenLens.selectTokenizer', name);
    await openDocument(TEXT, 'markdown');
    await waitFor(() => api.statusBar.text.startsWith('≈'), 10_000, 'the estimate in the status bar');
  }

  /** Runs a command that opens a quick pick and returns the pick's text once it lists `wanted`. */
  function pickListing(command: string, wanted: string): Promise<string> {
    void vscode.commands.executeCommand(command);
    return waitFor(
      async () => {
        const text = await ui({ op: 'read', selector: '.quick-input-widget .quick-input-list' });
        return text?.includes(wanted) ? text : undefined;
      },
      20_000,
      `the pick of ${command} to list ${wanted}`,
    );
  }

  test('the status bar shows ≈ round(o200k_base × 1.08) and its tooltip names the method, the error and the source', async () => {
    assert.equal(await vscode.commands.executeCommand('tokenLens.selectTokenizer', GEMINI), GEMINI);
    const base = await api.count(TEXT, 'o200k_base');
    const expected = Math.round(base * 1.08);
    assert.equal(await api.count(TEXT, GEMINI), expected, 'the API counts the estimate too');
    await openDocument(TEXT, 'markdown');
    const text = `≈ ${expected.toLocaleString('en-US')} tokens · ${GEMINI}`;
    await waitFor(
      () => api.statusBar.visible && api.statusBar.text === text,
      10_000,
      () => `"${text}", shown: "${api.statusBar.text}"`,
    );
    assert.match(api.statusBar.text, /^≈/);
    assert.match(api.statusBar.tooltip, new RegExp(`\\| Tokens \\| ≈${expected.toLocaleString('en-US')} \\|`));
    assert.match(api.statusBar.tooltip, /Estimate, not an exact count/);
    assert.match(api.statusBar.tooltip, /o200k_base count × 1\.08/);
    assert.match(api.statusBar.tooltip, /98\.37 %/);
    assert.match(api.statusBar.tooltip, /ai-tokenizer/);
    await waitFor(
      () => api.statusBar.tooltip.includes(`| o200k_base | ${base.toLocaleString('en-US')} |`),
      10_000,
      () => `the exact o200k_base count among the other encodings: ${api.statusBar.tooltip}`,
    );
    await assert.rejects(api.tokenize(TEXT, GEMINI), /needs? an exact tokenizer/);
  });

  test("Set Context Window marks Gemini's 1,048,576 tokens as typical; the picker lists the estimate under its own separator", async function () {
    if (!screenshotsSupported()) this.skip();
    await showEstimate(GEMINI);
    const windows = await pickListing('tokenLens.setContextWindow', '1,048,576');
    assert.match(windows, /1,048,576\s*typical for gemini \(estimate\)/);
    await screenshot('estimates-context-window');
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');

    const list = await pickListing('tokenLens.selectTokenizer', GEMINI);
    assert.match(list, /Closed models \(estimates\)/);
    await screenshot('estimates-picker');
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
  });

  test("claude (estimate): the status bar shows ai-tokenizer's Claude count with ≈, and its tooltip the method and the measured error", async () => {
    assert.equal(await vscode.commands.executeCommand('tokenLens.selectTokenizer', CLAUDE), CLAUDE);
    const expected = aiTokenizerClaude(TEXT);
    assert.equal(await api.count(TEXT, CLAUDE), expected, 'the API counts the estimate too');
    await openDocument(TEXT, 'markdown');
    const text = `≈ ${expected.toLocaleString('en-US')} tokens · ${CLAUDE}`;
    await waitFor(
      () => api.statusBar.visible && api.statusBar.text === text,
      10_000,
      () => `"${text}", shown: "${api.statusBar.text}"`,
    );
    assert.match(api.statusBar.tooltip, new RegExp(`\\| Tokens \\| ≈${expected.toLocaleString('en-US')} \\|`));
    assert.match(api.statusBar.tooltip, /Estimate, not an exact count/);
    assert.match(api.statusBar.tooltip, /Claude vocabulary count × 1\.1, rounded/);
    assert.match(api.statusBar.tooltip, /Claude Sonnet 4\.5 98\.48 % \/ 98\.91 % \/ 99\.70 %/);
    assert.match(api.statusBar.tooltip, /ai-tokenizer/);
    await assert.rejects(api.tokenize(TEXT, CLAUDE), /needs? an exact tokenizer/);
  });

  test("Set Context Window marks Claude's 200,000 tokens as typical", async function () {
    if (!screenshotsSupported()) this.skip();
    await showEstimate(CLAUDE);
    const windows = await pickListing('tokenLens.setContextWindow', '200,000');
    assert.match(windows, /200,000\s*typical for claude \(estimate\)/);
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
  });

  for (const name of [GEMINI, CLAUDE]) {
    test(`the inspector and token boundaries refuse ${name} rather than show another vocabulary's tokens as its own`, async () => {
      await vscode.commands.executeCommand('tokenLens.selectTokenizer', name);
      await openDocument(TEXT, 'markdown');
      const boundaries = await vscode.commands.executeCommand<{ enabled: boolean; segments: number }>(
        'tokenLens.toggleTokenBoundaries',
        true,
      );
      assert.equal(boundaries?.segments, 0, 'no token drawn');
      const report = await inspector.open();
      assert.ok(report);
      assert.equal(report.nTokens, 0);
      assert.match(report.note, new RegExp(`exact tokenizer.*${name.replace(/[()]/g, '\\$&')}" is an estimate`, 's'));
      if (name === GEMINI) await screenshot('estimates-inspector');
    });
  }
});
