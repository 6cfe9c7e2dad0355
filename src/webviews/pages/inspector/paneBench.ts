/** The inspector's test driver only (testDriver.ts, behind TEST_HOOKS): scrolls a pane frame by frame and times each frame's render. */
import type { PaneView } from './pane';

export interface ScrollBench {
  frames: number;
  maxMs: number;
  meanMs: number;
  p95Ms: number;
  rebuilt: number;
}

export async function scrollBench(pane: PaneView, frames: number): Promise<ScrollBench> {
  const times: number[] = [];
  let rebuilt = 0;
  const step = Math.max(1, Math.floor(pane.scroller.clientHeight / 3));
  for (let i = 0; i < frames; i++) {
    await new Promise((resolve) => requestAnimationFrame(resolve));
    const started = performance.now();
    const before = pane.firstRendered;
    pane.scroller.scrollTop += step;
    pane.renderVisible();
    void pane.root.offsetHeight;
    times.push(performance.now() - started);
    if (pane.firstRendered !== before) rebuilt++;
  }
  const round = (x: number) => Math.round(x * 100) / 100;
  const total = times.reduce((a, b) => a + b, 0);
  const sorted = [...times].sort((a, b) => a - b);
  const p95Ms = sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))] ?? 0;
  return { frames, maxMs: round(Math.max(0, ...times)), meanMs: round(total / frames), p95Ms: round(p95Ms), rebuilt };
}
