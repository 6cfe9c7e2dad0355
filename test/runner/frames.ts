/**
 * Keeps the headless window drawing.
 *
 * Headless Chromium can stop producing frames for a page whose compositor has gone idle: requestAnimationFrame then
 * never fires, in the workbench and in its webviews, and page.screenshot waits for a frame until it times out. A CI
 * run met exactly this halfway through the host suite (the inspector's scroll run never finished, and every later
 * screenshot timed out), with the extension host and the page's scripts still answering. The watch asks the page for
 * one animation frame every few seconds; when none comes in time it says so in the log and wakes the compositor: a
 * brief screencast first (which makes Chromium produce frames), then, if that was not enough, a one-pixel change of
 * the viewport and back (which makes the page lay out and draw again).
 */
import type { CDPSession, Page } from 'playwright-core';

const CHECK_EVERY_MS = 5_000;
/** A frame takes 16 ms on an idle machine; a loaded one has been seen to take a second or two. */
const FRAME_PATIENCE_MS = 4_000;

const delay = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Whether the page draws a frame within `ms`; true too when the page could not be asked (it is navigating or closing). */
async function drawsFrame(page: Page, ms: number): Promise<boolean> {
  const frame = page.evaluate(() => new Promise<boolean>((resolve) => requestAnimationFrame(() => resolve(true)))).catch(() => true);
  return Promise.race([frame, delay(ms).then(() => false)]);
}

async function screencastKick(cdp: CDPSession): Promise<void> {
  await cdp.send('Page.startScreencast', { format: 'jpeg', quality: 10, maxWidth: 160, maxHeight: 100, everyNthFrame: 1 });
  await delay(300);
  await cdp.send('Page.stopScreencast');
}

async function viewportKick(page: Page): Promise<void> {
  const size = page.viewportSize();
  if (!size) return;
  await page.setViewportSize({ width: size.width, height: size.height + 1 });
  await delay(300);
  await page.setViewportSize(size);
}

export interface FrameWatch {
  /** Makes sure the page draws (waking it if it does not) before something that needs a frame, like a screenshot. */
  ensure(): Promise<void>;
  stop(): void;
}

export async function watchFrames(page: Page, say: (line: string) => void): Promise<FrameWatch> {
  const cdp = await page.context().newCDPSession(page);
  let checking: Promise<void> | undefined;
  let stopped = false;
  const wake = async (): Promise<void> => {
    const kicks: [string, () => Promise<void>][] = [
      ['a brief screencast', () => screencastKick(cdp)],
      ['a one-pixel viewport change', () => viewportKick(page)],
    ];
    for (const [name, kick] of kicks) {
      await kick().catch((err: Error) => say(`frames: ${name} failed: ${err.message}`));
      if (await drawsFrame(page, FRAME_PATIENCE_MS)) return say(`frames: the window draws again after ${name}`);
    }
    say('frames: the window still draws no frame; screenshots and animation-frame waits will time out');
  };
  const check = (): Promise<void> =>
    (checking ??= (async () => {
      if (stopped || (await drawsFrame(page, FRAME_PATIENCE_MS)) || stopped) return;
      const state = await Promise.race([
        page.evaluate(() => `visibility ${document.visibilityState}, focus ${document.hasFocus()}`).catch((e: Error) => e.message),
        delay(FRAME_PATIENCE_MS).then(() => 'its scripts do not answer either'),
      ]);
      say(`frames: the window drew no frame in ${FRAME_PATIENCE_MS / 1000} s (${state}); waking its compositor`);
      await wake();
    })().finally(() => (checking = undefined)));
  const timer = setInterval(() => void check(), CHECK_EVERY_MS);
  return {
    ensure: check,
    stop: () => {
      stopped = true;
      clearInterval(timer);
      void cdp.detach().catch(() => undefined);
    },
  };
}
