/**
 * The structure views in a real webview: the 3D structure view's time to first frame for a 1,000-atom
 * cell, and each result view's time from answer to rendered (relax, single point, MD, band structure
 * of the 64-atom Si cell, with the reference server's own answers). Prints `[structures-bench]` lines
 * that `npm run bench` collects; nothing here asserts a timing.
 */
import * as vscode from 'vscode';
import { parsePoscar } from '../../../src/core/poscar/index';
import { bandStructure, dynamics, FIELDS, relaxation, singlePoint, structureOf } from '../../../src/server/physics/answers';
import { runToEnd } from '../../../src/core/util/steps';
import type { ResultReport } from '../../../src/webviews/results/protocol';
import type { RunKind, RunRecord } from '../../../src/core/runs/run';
import type { StructureReport } from '../../../src/webviews/structure/protocol';
import { activateExtension, closeAllEditors, openDocument, waitFor } from '../../suite/util';
import { gridPoscar } from '../../support/poscarSamples';
import { si64Poscar } from '../structures';

const RUNS = 3;
const say = (line: string): void => console.log(`[structures-bench] ${line}`);

suite('Structure views benchmark', () => {
  suiteSetup(() => activateExtension());
  teardown(async () => {
    await vscode.commands.executeCommand('tokenLens.structure.test', 'closeAll');
    await vscode.commands.executeCommand('tokenLens.results.test', 'closeAll');
    await closeAllEditors();
  });

  test(`structure view: first frame of a 1,000-atom cell (${RUNS} opens)`, async function () {
    this.timeout(300_000);
    const editor = await openDocument(gridPoscar([10, 10, 10]), 'poscar');
    const uri = editor.document.uri;
    for (let i = 0; i < RUNS; i++) {
      await vscode.commands.executeCommand('tokenLens.structure.test', 'closeAll');
      const started = performance.now();
      await vscode.commands.executeCommand('tokenLens.showStructure', uri);
      let last: StructureReport | undefined;
      let reportMs = NaN;
      let polls = 0;
      const report = await waitFor(
        async () => {
          const asked = performance.now();
          last = await vscode.commands.executeCommand<StructureReport | undefined>('tokenLens.structure.test', 'report', {
            uri: uri.toString(),
          });
          reportMs = performance.now() - asked;
          polls++;
          return last && last.atoms > 0 ? last : undefined;
        },
        60_000,
        () => `the structure view's first frame; last report ${JSON.stringify(last)}`,
        20,
      );
      const wallMs = performance.now() - started;
      say(
        `result ${JSON.stringify({ view: 'structure', run: i + 1, atoms: report.atoms, bonds: report.bonds, renderMs: report.renderMs, wallMs, reportMs, polls, painted: report.painted })}`,
      );
    }
  });

  test(`result views: answer to rendered for relax, single point, MD and band structure of Si64 (${RUNS} shows each)`, async function () {
    this.timeout(600_000);
    const rattled = si64Poscar(0.05);
    const plain = si64Poscar();
    const s = (text: string) => structureOf(parsePoscar(text).poscar!);
    // The reference server's own answers, computed here as its handlers do (defaults of FIELDS), through JSON as sent.
    const answers: Array<[RunKind, string, () => unknown]> = [
      ['relax', rattled, () => runToEnd(relaxation(s(rattled), { fmax: FIELDS.fmax.default, maxSteps: FIELDS.max_steps.default }))],
      ['singlePoint', rattled, () => singlePoint(s(rattled))],
      [
        'md',
        plain,
        () =>
          runToEnd(
            dynamics(s(plain), {
              temperature: FIELDS.temperature.default,
              timestep: FIELDS.timestep.default,
              steps: FIELDS.steps.default,
              seed: FIELDS.seed.default,
            }),
          ),
      ],
      // kpath_density 1: for 64 atoms the default density's k-points pass the server's budget (as in structures.ts).
      ['tightbinding', plain, () => runToEnd(bandStructure(s(plain), 1))],
    ];
    let n = 0;
    for (const [kind, inputText, answer] of answers) {
      const t = performance.now();
      const json = JSON.stringify(answer());
      const computeMs = performance.now() - t;
      const value = JSON.parse(json) as unknown;
      for (let i = 0; i < RUNS; i++) {
        await vscode.commands.executeCommand('tokenLens.results.test', 'closeAll');
        const run: RunRecord = {
          id: `bench-${kind}-${++n}`,
          kind,
          inputUri: 'untitled:/bench-Si64.vasp',
          inputName: 'Si64.vasp',
          inputText,
          startedAt: Date.now() - Math.round(computeMs),
          durationMs: Math.round(computeMs),
          state: 'done',
          response: { status: 200, headers: { 'content-type': 'application/json' }, body: { type: 'json', value } },
        };
        const started = performance.now();
        await vscode.commands.executeCommand('tokenLens.results.test', 'show', run);
        let last: ResultReport | undefined;
        let reportMs = NaN;
        let polls = 0;
        const report = await waitFor(
          async () => {
            const asked = performance.now();
            last = await vscode.commands.executeCommand<ResultReport | undefined>('tokenLens.results.test', 'report', { runId: run.id });
            reportMs = performance.now() - asked;
            polls++;
            return last && last.state === 'done' ? last : undefined;
          },
          60_000,
          () => `the ${kind} view; last report ${JSON.stringify(last)}`,
          20,
        );
        const wallMs = performance.now() - started;
        say(
          `result ${JSON.stringify({ view: kind, run: i + 1, answerBytes: json.length, renderMs: report.renderMs, wallMs, reportMs, polls, plots: report.plots.length, headline: report.headline })}`,
        );
      }
    }
  });
});
