/**
 * Where a process's main thread is, read through Node's inspector: what the runner prints when a run never ends, so
 * that a blocked extension host (where no test timeout can fire) names the code that holds it. The process must have
 * been started with `--inspect-port` (the runner puts it in NODE_OPTIONS); SIGUSR1 opens the inspector, as
 * `node inspect -p` does, and works while JavaScript runs.
 */
import { WebSocket } from 'undici';
import { delay } from './codeServer';

interface Frame {
  functionName: string;
  location: { scriptId: string; lineNumber: number; columnNumber: number };
}

async function debuggerUrl(port: number, deadline: number): Promise<string | undefined> {
  while (Date.now() < deadline) {
    try {
      const answer = await fetch(`http://127.0.0.1:${port}/json/list`, { signal: AbortSignal.timeout(Math.max(1, deadline - Date.now())) });
      const targets = (await answer.json()) as { webSocketDebuggerUrl?: string }[];
      if (targets[0]?.webSocketDebuggerUrl) return targets[0].webSocketDebuggerUrl;
    } catch {
      // not listening yet
    }
    await delay(100);
  }
  return undefined;
}

/** A turn of the event loop: answered at once unless JavaScript holds the thread. */
const LOOP_TURN = 'new Promise((r) => setImmediate(() => r(1)))';

/**
 * Whether the thread is blocked, and if so where: a turn of its event loop is asked for first (an idle thread answers
 * it, and pausing one would only show the next timer), and only a thread that does not answer is paused.
 */
function blockedStack(url: string, deadline: number, depth: number): Promise<string> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url);
    const scripts = new Map<string, string>();
    const send = (id: number, method: string, params?: object) => {
      try {
        ws.send(JSON.stringify({ id, method, params }));
      } catch {
        // closed meanwhile: finish has answered or will
      }
    };
    let blocked: NodeJS.Timeout | undefined;
    const finish = (text: string) => {
      clearTimeout(timer);
      clearTimeout(blocked);
      ws.close();
      resolve(text);
    };
    const timer = setTimeout(() => finish('the inspector did not answer in time'), Math.max(0, deadline - Date.now()));
    ws.onerror = () => finish('the inspector did not answer');
    ws.onopen = () => {
      // The loop is asked first and alone: enabling the debugger sends every script's details, which takes a while.
      send(2, 'Runtime.evaluate', { expression: LOOP_TURN, awaitPromise: true });
      blocked = setTimeout(() => {
        send(1, 'Debugger.enable');
        send(3, 'Debugger.pause');
      }, 2000);
    };
    ws.onmessage = (event) => {
      const msg = JSON.parse(String(event.data)) as {
        id?: number;
        method?: string;
        params?: { scriptId?: string; url?: string; callFrames?: Frame[] };
      };
      if (msg.id === 2) finish('its event loop was free: the suite was waiting for something, not blocked');
      if (msg.method === 'Debugger.scriptParsed') scripts.set(msg.params?.scriptId ?? '', msg.params?.url ?? '');
      if (msg.method !== 'Debugger.paused') return;
      const frames = (msg.params?.callFrames ?? []).slice(0, depth).map((f) => {
        const where = `${scripts.get(f.location.scriptId) || '?'}:${f.location.lineNumber + 1}:${f.location.columnNumber + 1}`;
        return `    at ${f.functionName || '(anonymous)'} (${where})`;
      });
      finish(`its main thread was blocked, running:\n${frames.join('\n')}`);
    };
  });
}

/** What `pid`'s main thread is doing, within `timeoutMs`; never throws. */
export async function mainThreadStack(pid: number, port: number, timeoutMs = 10_000, depth = 15): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  try {
    process.kill(pid, 'SIGUSR1');
    const url = await debuggerUrl(port, deadline);
    return url
      ? await blockedStack(url, deadline, depth)
      : `its inspector did not open on port ${port} (a thread held outside JavaScript, in a synchronous native call, cannot open it)`;
  } catch (err) {
    return `its stack could not be read: ${(err as Error).message}`;
  }
}
