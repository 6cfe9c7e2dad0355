/**
 * The inspector in a real webview at the service's limit (50,000 characters) and at 1 MB: time to
 * the first paint (the visible part, for a big document) next to the same with the first paint
 * turned off (the path before it), to open completely, to show an edit, the webview's own render,
 * and scroll frames. Prints `[inspector-bench]`
 * lines that `npm run bench` collects; the goal line is judged there, not asserted here.
 */
import { DEBOUNCE_LARGE_MS, DEBOUNCE_MS } from '../../../src/webviews/inspector/panel';
import { formatScaleRun, scaleRun, type ScaleRun } from '../../suite/inspectorDriver';
import { activateExtension } from '../../suite/util';

const RUNS = 3;
const LARGE = 100_000;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1]!;
}

suite('Inspector benchmark', () => {
  suiteSetup(() => activateExtension());

  test(`open, edit, render and scroll at 50,000 characters and 1 MB (median of ${RUNS})`, async function () {
    this.timeout(600_000);
    for (const size of [50_000, 1_000_000]) {
      const runs: ScaleRun[] = [];
      const before: ScaleRun[] = [];
      for (let i = 0; i < RUNS; i++) {
        before.push(await scaleRun(size, false));
        runs.push(await scaleRun(size));
      }
      for (const run of before) console.log(`[inspector-bench] run without the first paint: ${formatScaleRun(run)}`);
      for (const run of runs) console.log(`[inspector-bench] run: ${formatScaleRun(run)}`);
      const debounce = size > LARGE ? DEBOUNCE_LARGE_MS : DEBOUNCE_MS;
      const update = median(runs.map((r) => r.editMs - debounce));
      const result = {
        size,
        tokens: runs[0]!.report.nTokens,
        debounce,
        firstPaintMs: median(runs.map((r) => r.firstPaintMs)),
        firstPaintBeforeMs: median(before.map((r) => r.firstPaintMs)),
        paintAfterReadyMs: median(runs.map((r) => r.first.sinceReadyMs)),
        paintAfterReadyBeforeMs: median(before.map((r) => r.first.sinceReadyMs)),
        openMs: median(runs.map((r) => r.openMs)),
        updateMs: update,
        renderMs: median(runs.map((r) => r.edited.renderMs)),
        scrollP95Ms: median(runs.map((r) => r.scroll.p95Ms)),
        scrollMaxMs: Math.max(...runs.map((r) => r.scroll.maxMs)),
      };
      console.log(`[inspector-bench] result ${JSON.stringify(result)}`);
    }
  });
});
