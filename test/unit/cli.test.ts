import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';

const cli = join(__dirname, '..', '..', 'src', 'cli.js');
const run = (args: string[], input?: string) => spawnSync(process.execPath, [cli, ...args], { input, encoding: 'utf8' });

test('tokenize reads standard input and prints the spec 2.2 JSON', () => {
  const out = run(['tokenize', '--tokenizer', 'model-4'], 'Hello world');
  assert.equal(out.status, 0, out.stderr);
  assert.deepEqual(JSON.parse(out.stdout), {
    tokenizer: 'model-4', text: 'Hello world', n_tokens: 2, n_chars: 11, tokens: ['Hello', ' world'], token_ids: [9906, 1917],
  });
});

test('tokenize reads a file, default tokenizer cl100k_base', () => {
  const file = join(mkdtempSync(join(tmpdir(), 'token-lens-')), 'prompt.txt');
  writeFileSync(file, 'one two');
  const out = run(['tokenize', file]);
  assert.equal(out.status, 0, out.stderr);
  assert.equal(JSON.parse(out.stdout).tokenizer, 'cl100k_base');
  assert.equal(JSON.parse(out.stdout).n_tokens, 2);
});

test('special-token text never crashes the CLI', () => {
  const out = run(['tokenize'], '<|endoftext|>');
  assert.equal(out.status, 0, out.stderr);
  assert.ok(JSON.parse(out.stdout).n_tokens > 1);
  const special = run(['tokenize', '--special-tokens', 'special'], '<|endoftext|>');
  assert.deepEqual(JSON.parse(special.stdout).token_ids, [100257]);
});

test('a bad tokenizer name or unreadable file: a message on stderr and exit code 2', () => {
  const bad = run(['tokenize', '--tokenizer', 'gpt-5'], 'x');
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /Unknown tokenizer "gpt-5"\. Valid tokenizers: cl100k_base/);
  assert.equal(bad.stdout, '');
  const missing = run(['tokenize', '/no/such/file']);
  assert.equal(missing.status, 2);
  assert.match(missing.stderr, /Cannot read \/no\/such\/file: ENOENT/);
  assert.equal(run(['count']).status, 2);
});
