/**
 * VS Code for the Web: the engine, built for the browser as dist/web/extension.js is, runs in a Web
 * Worker of headless Chromium (the web extension host is one) with its ranks fetched from the rank
 * files the package carries, and gives tiktoken's ids for every encoding, on real and hostile text.
 * The shipped bundle itself must also evaluate in a worker (no Node module read at load).
 * Needs `npm run build` first (dist/ranks, dist/web); `npm run test:web` does both.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { build } from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { ENCODING_NAMES, loadTokenizerSync } from '../../src/core/tokenizers/index';
import { Rng, SPECIAL_TEXTS, randomSlice, randomText, realText, textWithLoneSurrogates } from '../bench/textgen';
import { tiktokenOracle } from '../support/tiktokenOracle';
import { launchChromium } from './chromium';
import type { WorkerAnswer, WorkerRequest } from './engineWorker';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const DIST = path.join(ROOT, 'dist');
let server: http.Server;
/** Requests for rank files, by path. */
const served = new Map<string, number>();
let browser: Browser;
let page: Page;

before(async () => {
  for (const file of ['web/extension.js', 'ranks/cl100k_base.js']) {
    assert.ok(fs.existsSync(path.join(DIST, file)), `dist/${file} is missing: run npm run build first`);
  }
  const worker = await build({
    entryPoints: [path.join(ROOT, 'test', 'web', 'engineWorker.ts')],
    bundle: true,
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    write: false,
    external: ['node:fs', 'node:path'],
    logLevel: 'warning',
  });
  const files: Partial<Record<string, () => Buffer | string>> = {
    '/': () => '<!doctype html><title>web engine</title>',
    '/worker.js': () => worker.outputFiles[0]!.text,
    '/extension.js': () => fs.readFileSync(path.join(DIST, 'web', 'extension.js')),
  };
  server = http.createServer((req, res) => {
    const ranks = /^\/ranks\/(\w+)\.js$/.exec(req.url ?? '');
    const file = ranks ? path.join(DIST, 'ranks', `${ranks[1]}.js`) : undefined;
    const body = files[req.url ?? ''] ?? (file && fs.existsSync(file) ? () => fs.readFileSync(file) : undefined);
    if (ranks) served.set(req.url!, (served.get(req.url!) ?? 0) + 1);
    // no-store: every fetch the engine makes reaches this server, none is answered from the browser's cache
    res.writeHead(body ? 200 : 404, { 'content-type': req.url === '/' ? 'text/html' : 'text/javascript', 'cache-control': 'no-store' });
    res.end(body?.());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  browser = await launchChromium();
  page = await browser.newPage();
  await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
});

after(async () => {
  await browser?.close();
  server?.close();
});

/**
 * Sends one request to a fresh worker and returns its answer. Both cross into the page as JSON text: Playwright takes
 * about 3 s to carry a quarter of a million numbers as values, and a moment as one string.
 */
async function inWorker(request: WorkerRequest): Promise<WorkerAnswer> {
  const answer = await page.evaluate(
    (json) =>
      new Promise<string>((resolve, reject) => {
        const worker = new Worker('/worker.js');
        worker.onmessage = (event: MessageEvent<WorkerAnswer>) => {
          resolve(JSON.stringify(event.data));
          worker.terminate();
        };
        worker.onerror = (event) => reject(new Error(event.message));
        worker.postMessage(JSON.parse(json));
      }),
    JSON.stringify(request),
  );
  return JSON.parse(answer) as WorkerAnswer;
}

const units = (text: string): number[] => Array.from({ length: text.length }, (_, i) => text.charCodeAt(i));

function texts(): { plain: string[]; lone: string[] } {
  const rng = new Rng(0x3eb);
  const real = realText();
  const plain = [
    '',
    'Hello, world!',
    SPECIAL_TEXTS.join(' and '),
    '\u{1F469}\u200D\u{1F52C} 日本語のテキスト  \t\r\n  ',
    ' '.repeat(5000),
    'a'.repeat(20_000),
    '1234567890'.repeat(300),
    real.slice(0, 200_000),
  ];
  for (let i = 0; i < 40; i++) plain.push(randomText(rng));
  for (let i = 0; i < 10; i++) plain.push(randomSlice(rng, real, rng.int(1, 4000)));
  const lone = Array.from({ length: 15 }, () => textWithLoneSurrogates(rng));
  return { plain, lone };
}

test('the bundle for VS Code for the Web evaluates in a worker and exports activate', async () => {
  const kind = await page.evaluate(
    () =>
      new Promise<string>((resolve) => {
        const source = `
      fetch('${location.origin}/extension.js').then((r) => r.text()).then((code) => {
        // Any name, call or construction answers itself; esbuild's interop reads names through the prototype.
        const vscode = new Proxy(function () {}, { get: (t, k) => (k === 'prototype' ? {} : vscode), getPrototypeOf: () => vscode, apply: () => vscode, construct: () => vscode });
        const module = { exports: {} };
        const require = (id) => { if (id === 'vscode') return vscode; throw new Error('required ' + id + ' at load'); };
        new Function('module', 'exports', 'require', code)(module, module.exports, require);
        postMessage(typeof module.exports.activate + ' ' + typeof module.exports.deactivate);
      }).catch((e) => postMessage('error: ' + e));`;
        const worker = new Worker(URL.createObjectURL(new Blob([source], { type: 'text/javascript' })));
        worker.onmessage = (event: MessageEvent<string>) => {
          resolve(event.data);
          worker.terminate();
        };
      }),
  );
  assert.equal(kind, 'function function');
});

test('o200k_base and o200k_harmony loaded at once in a worker: one fetch of o200k_base.js, one table, each its own special tokens', async () => {
  served.clear();
  const answer = await inWorker({
    tokenizer: 'o200k_harmony',
    alsoLoad: ['o200k_base', 'model-4o (o200k)'],
    specialTokens: 'special',
    texts: [units('<|start|>Hi<|end|>')],
  });
  assert.equal(answer.error, undefined);
  assert.deepEqual(Object.fromEntries(served), { '/ranks/o200k_base.js': 1 });
  assert.deepEqual(
    answer.tables?.map((t) => [t.ranks, [...t.encodings].sort()]),
    [['o200k_base', ['o200k_base', 'o200k_harmony']]],
  );
  assert.deepEqual(answer.results?.[0]?.ids, [200006, 12194, 200007]);
});

for (const name of ENCODING_NAMES) {
  test(`${name} in a browser worker: tiktoken's ids, the same count sliced, and the desktop engine's ids on lone surrogates`, async () => {
    const { plain, lone } = texts();
    const oracle = tiktokenOracle(name);
    try {
      for (const specialTokens of ['text', 'special'] as const) {
        const answer = await inWorker({ tokenizer: name, specialTokens, texts: [...plain, ...lone].map(units) });
        assert.equal(answer.error, undefined);
        assert.deepEqual(answer.globals, {
          setImmediate: 'undefined',
          require: 'undefined',
          process: 'undefined',
          Buffer: 'undefined',
          window: 'undefined',
        });
        const desktop = loadTokenizerSync(name, { specialTokens });
        answer.results!.forEach((got, i) => {
          const text = i < plain.length ? plain[i]! : lone[i - plain.length]!;
          const where = `${specialTokens} text #${i} ${JSON.stringify(text.slice(0, 80))}`;
          const want =
            i < plain.length
              ? Array.from(specialTokens === 'special' ? oracle.encode(text, 'all') : oracle.encode_ordinary(text))
              : desktop.encode(text);
          assert.deepEqual(got.ids, want, where);
          assert.equal(got.count, want.length, where);
          assert.equal(got.sliced, want.length, where);
        });
      }
    } finally {
      oracle.free();
    }
  });
}

test('claude (estimate) in a browser worker: its rank file fetched as VS Code for the Web does, and the desktop count, sliced too', async () => {
  const { plain, lone } = texts();
  const all = [...plain, ...lone];
  const answer = await inWorker({ tokenizer: 'claude (estimate)', specialTokens: 'text', texts: all.map(units) });
  assert.equal(answer.error, undefined);
  const desktop = loadTokenizerSync('claude (estimate)');
  answer.results!.forEach((got, i) => {
    const where = `text #${i} ${JSON.stringify(all[i]!.slice(0, 80))}`;
    assert.equal(got.count, desktop.count(all[i]!), where);
    assert.equal(got.sliced, got.count, where);
  });
});
