import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { countConversation, openAIFormat, parseConversation } from '../../src/core/chat/index';
import { percentile } from '../../src/core/chat/datasetStats';
import { loadTokenizerSync } from '../../src/core/tokenizers/index';
import type { DatasetReport } from '../../src/webviews/dataset/protocol';
import { activateExtension, closeAllEditors, patience, resetSettings, screenshot, waitFor } from './util';

const TEST = 'tokenLens.dataset.test';
const settings = () => vscode.workspace.getConfiguration('tokenLens');

/** A small fine-tuning set: varied lengths, one conversation far over a 200-token window, two broken lines. */
function dataset(): { lines: string[]; conversations: unknown[] } {
  const conversations: unknown[] = [];
  const topics = ['tea', 'the tides', 'prime numbers', 'bread', 'orbits', 'violins', 'glaciers', 'ink'];
  topics.forEach((topic, i) =>
    conversations.push({
      messages: [
        { role: 'system', content: 'You are a concise tutor.' },
        { role: 'user', content: `Tell me about ${topic}.${' Please go on.'.repeat(i * 3)}` },
        { role: 'assistant', content: `${topic} is a fine subject. `.repeat(i + 1) },
      ],
    }),
  );
  conversations.push({ messages: [{ role: 'user', content: 'Summarise this: ' + 'lorem ipsum dolor sit amet '.repeat(60) }] });
  const lines = conversations.map((c) => JSON.stringify(c));
  lines.splice(3, 0, '{"messages": [{"role": "user", "content": "cut off');
  lines.push('{"messages":[{"role":"wizard","content":"abracadabra"}]}');
  return { lines, conversations };
}

suite('Dataset overview', function () {
  this.timeout(patience(90_000));
  let dir: string;

  suiteSetup(async () => {
    await activateExtension();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'token-lens-dataset-view-'));
  });

  teardown(async () => {
    await resetSettings('tokenLens', ['contextWindow.size', 'prices', 'dataset.epochs']);
    await vscode.commands.executeCommand(TEST, 'closeAll');
    await closeAllEditors();
  });

  suiteTeardown(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('shows the counts as the model reads them, the percentiles, the lines over the window (which open at a click) and the cost', async () => {
    const { lines, conversations } = dataset();
    const file = path.join(dir, 'train.jsonl');
    fs.writeFileSync(file, lines.join('\n') + '\n');
    await settings().update('contextWindow.size', 200, vscode.ConfigurationTarget.Global);
    await settings().update('dataset.epochs', 3, vscode.ConfigurationTarget.Global);
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(file), { preview: false });

    // What the view must show: the core's count of each conversation with OpenAI's framing on cl100k_base.
    const model = { tokenizer: loadTokenizerSync('cl100k_base'), format: openAIFormat };
    const counts: number[] = [];
    for (const c of conversations) counts.push((await countConversation(parseConversation(c), model)).total);
    const total = counts.reduce((a, b) => a + b, 0);
    const sorted = Float64Array.from(counts).sort();
    const shown = (n: number) =>
      n.toLocaleString('en-US', { maximumFractionDigits: Number.isInteger(n) ? 0 : 1, minimumFractionDigits: Number.isInteger(n) ? 0 : 1 });
    const overLines = counts.flatMap((n, i) => (n > 200 ? [i + (i >= 3 ? 2 : 1)] : []));
    assert.ok(overLines.length >= 1, `some conversation over 200 tokens: ${counts.join(', ')}`);

    await vscode.commands.executeCommand('tokenLens.openDatasetView');
    await vscode.commands.executeCommand(TEST, 'settled');
    const report = async (): Promise<DatasetReport> => {
      let last: DatasetReport | undefined;
      await waitFor(
        async () => (last = await vscode.commands.executeCommand<DatasetReport>(TEST, 'report'))?.state === 'done',
        30_000,
        () => JSON.stringify(last),
      );
      return last!;
    };
    const seen = await report();
    const rows = (title: string) => seen.tables.find((t) => t.title === title)?.rows ?? [];
    assert.match(seen.status, /^11 lines counted in [\d.]+ s · cl100k_base$/);
    const summary = rows('Dataset');
    assert.ok(summary.includes(`Conversations | ${conversations.length}`), summary.join('\n'));
    assert.ok(summary.includes(`Tokens as the model reads them | ${total.toLocaleString('en-US')}`), summary.join('\n'));
    assert.ok(summary.includes('Lines that are no conversation | 2'), summary.join('\n'));
    assert.ok(summary.includes(`Over the usable context window | ${overLines.length}`), summary.join('\n'));
    const spread = rows('Tokens per conversation');
    assert.deepEqual(spread.slice(0, 6), [
      `Minimum | ${shown(sorted[0]!)}`,
      `Median | ${shown(percentile(sorted, 50))}`,
      `p90 | ${shown(percentile(sorted, 90))}`,
      `p95 | ${shown(percentile(sorted, 95))}`,
      `p99 | ${shown(percentile(sorted, 99))}`,
      `Maximum | ${shown(sorted[sorted.length - 1]!)}`,
    ]);
    assert.ok(seen.plotted && seen.bins > 1, `the histogram is drawn: ${seen.bins} bins`);
    assert.deepEqual(
      rows('Lines that are no conversation').map((r) => r.split(' | ')[0]),
      ['4', '11'],
    );
    // No training price, but the shipped input price of cl100k_base (GPT-4's, from LiteLLM's table).
    assert.equal(seen.epochs, 3, 'the epochs field starts at tokenLens.dataset.epochs');
    assert.deepEqual(rows('Training cost'), [
      `All conversations once as input | $${((total * 30) / 1e6).toFixed(2)} (at $30.00 per 1M tokens)`,
    ]);
    assert.ok(seen.targets.includes('prices'), 'a button to set a training price');
    assert.ok(seen.yTicks.length >= 2, `the histogram's y axis has ticks: ${seen.yTicks.join(', ')}`);
    assert.ok(
      seen.yTicks.every((t) => /^\d+$/.test(t)),
      `conversations are whole: the y ticks are integers (${seen.yTicks.join(', ')})`,
    );

    await settings().update('prices', { cl100k_base: { training: 8 } }, vscode.ConfigurationTarget.Global);
    const estimated = (report: DatasetReport | undefined) =>
      report?.tables.find((t) => t.title === 'Training cost')?.rows.find((row) => row.startsWith('Estimated cost'));
    const dollars = (epochs: number) => {
      const cost = (total * epochs * 8) / 1e6;
      return cost >= 0.01 ? `$${cost.toFixed(2)}` : `$${cost.toPrecision(2)}`;
    };
    const priced = await waitFor(
      async () => estimated(await vscode.commands.executeCommand<DatasetReport>(TEST, 'report')),
      10_000,
      'the cost once a price is set',
    );
    assert.equal(priced, `Estimated cost | ${dollars(3)}`);

    // The user types 5 epochs into the view: the cost follows, the setting stays as it was.
    await vscode.commands.executeCommand(TEST, 'epochs', { value: 5 });
    const five = await waitFor(
      async () => {
        const r = await vscode.commands.executeCommand<DatasetReport>(TEST, 'report');
        return r?.epochs === 5 && estimated(r) === `Estimated cost | ${dollars(5)}` ? r : undefined;
      },
      10_000,
      () => `the cost for 5 epochs (${dollars(5)})`,
    );
    assert.ok(
      five.tables.find((t) => t.title === 'Training cost')!.rows.includes(`Training tokens | ${total.toLocaleString('en-US')} × 5 epochs`),
    );
    assert.equal(settings().get('dataset.epochs'), 3);
    await screenshot('dataset-overview');

    const line = overLines[0]!;
    await vscode.commands.executeCommand(TEST, 'click', { target: `over:${line}` });
    await waitFor(
      () =>
        vscode.window.activeTextEditor?.document.uri.fsPath === file && vscode.window.activeTextEditor.selection.active.line === line - 1,
      10_000,
      () =>
        `line ${line} selected, the editor shows ${vscode.window.activeTextEditor?.document.fileName}:${vscode.window.activeTextEditor?.selection.active.line}`,
    );
  });

  test('after a reload the view comes back for its file with the epochs chosen in it; a file that is gone is a message, not a blank view', async () => {
    const { lines } = dataset();
    const file = path.join(dir, 'restored.jsonl');
    fs.writeFileSync(file, lines.join('\n'));
    const uri = vscode.Uri.file(file).toString();
    // What the serializer does with the state the page kept ({ uri, epochs }).
    assert.deepEqual(await vscode.commands.executeCommand(TEST, 'restore', { uri, epochs: 4 }), [uri]);
    const report = await vscode.commands.executeCommand<DatasetReport>(TEST, 'report');
    assert.equal(report?.state, 'done');
    assert.equal(report?.epochs, 4, 'the epochs chosen before the reload');
    assert.ok(report?.tables.find((t) => t.title === 'Dataset')?.rows.includes('Conversations | 9'));

    await vscode.commands.executeCommand(TEST, 'closeAll');
    fs.rmSync(file);
    const webviews = () =>
      vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputWebview).length;
    const before = webviews();
    assert.deepEqual(await vscode.commands.executeCommand(TEST, 'restore', { uri, epochs: 4 }), [], 'no view for a file that is gone');
    assert.deepEqual(
      await vscode.commands.executeCommand(TEST, 'restore', { uri: 42, epochs: '<img>' }),
      [],
      'nor for a state that is none',
    );
    // At most as many as before: a view closeAll was still closing when `before` was counted may close meanwhile.
    await waitFor(() => webviews() <= before, 10_000, 'the pages the serializer was given to be closed');
  });

  test('a file not open in the editor: read from the disk in slices, every line counted and every broken one listed', async () => {
    const { lines } = dataset();
    const file = path.join(dir, 'big.jsonl');
    const body = Array.from({ length: 400 }, () => lines.join('\n')).join('\n');
    fs.writeFileSync(file, body);
    const uri = vscode.Uri.file(file).toString();
    assert.equal(await vscode.commands.executeCommand(TEST, 'open', { uri }), uri);
    const report = await vscode.commands.executeCommand<DatasetReport>(TEST, 'report');
    const rows = report?.tables.find((t) => t.title === 'Dataset')?.rows ?? [];
    assert.ok(rows.includes(`Conversations | ${(400 * 9).toLocaleString('en-US')}`), rows.join('\n'));
    assert.ok(rows.includes('Lines that are no conversation | 800'), rows.join('\n'));
    assert.equal(report?.tables.find((t) => t.title === 'Lines that are no conversation')?.rows.length, 800);
  });
});
