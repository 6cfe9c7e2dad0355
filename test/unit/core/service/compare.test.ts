import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compareResults, comparisonMarkdown } from '../../../../src/core/service/compare';
import { loadTokenizerSync } from '../../../../src/core/tokenizers/index';

const tokenize = (name: string, text: string, specialTokens: 'text' | 'special' = 'text') =>
  loadTokenizerSync(name, { specialTokens }).tokenize(text);

test('identical results agree', () => {
  const text = 'Hello there, world';
  const c = compareResults('cl100k_base', text, tokenize('cl100k_base', text), tokenize('cl100k_base', text), 'text');
  assert.equal(c.identical, true);
  assert.match(c.explanations[0]!, /agree: \d+ tokens/);
  assert.equal(c.firstDifference, undefined);
});

test('a service that resolves aliases is explained', () => {
  const text = 'alias';
  const remote = { ...tokenize('model-4', text), tokenizer: 'cl100k_base' };
  const c = compareResults('model-4', text, remote, tokenize('model-4', text), 'text');
  assert.equal(c.identical, true);
  assert.ok(c.explanations.some((e) => /reports the resolved name/.test(e) && /alias of cl100k_base/.test(e)));
});

test('special tokens: the local special mode explains a lower count', () => {
  const text = 'a<|endoftext|>b';
  const c = compareResults('cl100k_base', text, tokenize('cl100k_base', text), tokenize('cl100k_base', text, 'special'), 'special');
  assert.equal(c.identical, false);
  assert.ok(c.remoteCount > c.localCount);
  assert.ok(c.firstDifference);
  assert.ok(c.explanations.some((e) => /special-token strings/.test(e)));
});

test('a different encoding behind an alias is explained, with the first differing token', () => {
  const text = 'Tokenizers disagree about café and 中文字符.';
  const c = compareResults('model-4o', text, tokenize('o200k_base', text), tokenize('model-4o', text), 'text');
  assert.equal(c.identical, false);
  assert.match(c.explanations[0]!, /first differ at token/);
  assert.ok(c.explanations.some((e) => /alias/.test(e)));
});

test('same split, different ids for the whitespace tokenizer', () => {
  const text = 'one two one';
  const local = tokenize('whitespace', text);
  const remote = { ...local, token_ids: [10, 11, 10] };
  const c = compareResults('whitespace', text, remote, local, 'text');
  assert.equal(c.sameSplit, true);
  assert.equal(c.identical, false);
  assert.match(c.explanations[0]!, /leaves the ids of the whitespace tokenizer open/);
});

test('markdown report lists counts and tokens, escaping pipes', () => {
  const text = 'a | b';
  const md = comparisonMarkdown(
    'cl100k_base',
    tokenize('cl100k_base', text),
    tokenize('cl100k_base', text),
    compareResults('cl100k_base', text, tokenize('cl100k_base', text), tokenize('cl100k_base', text), 'text'),
    'http://x',
  );
  assert.match(md, /\| Tokens \| 3 \| 3 \|/);
  assert.match(md, /\\\|/);
  assert.match(md, /Service: http:\/\/x/);
});

test('markdown report: what the service sends shows as text, never as HTML', () => {
  const text = 'x';
  const hostile = '<img src=x onerror=alert(1)>\n# heading';
  const remote = { ...tokenize('cl100k_base', text), tokenizer: hostile, tokens: ['<script>alert(1)</script>'] };
  const md = comparisonMarkdown(
    'cl100k_base',
    remote,
    tokenize('cl100k_base', text),
    compareResults('cl100k_base', text, remote, tokenize('cl100k_base', text), 'text'),
    'http://x/<b>',
  );
  const outsideCodeSpans = md.replace(/`[^`\n]*`/g, '');
  assert.ok(!outsideCodeSpans.includes('<'), md);
  assert.ok(md.includes('&lt;img src=x onerror=alert(1)&gt; # heading'), md);
  assert.ok(md.includes('`<script>alert(1)</script>`'), 'a token is a code span, which Markdown shows literally');
  assert.ok(!/^# heading/m.test(md), 'no line break from the service');
});

test('markdown report: a token with backticks and spaces is shown as itself, so a copy is the token', () => {
  const text = 'run `ls -la` now';
  const local = tokenize('cl100k_base', text);
  const md = comparisonMarkdown('cl100k_base', local, local, compareResults('cl100k_base', text, local, local, 'text'), 'http://x');
  const tick = local.tokens.find((t) => t.includes('`'))!;
  assert.ok(tick, 'the text has a token holding a backtick');
  assert.ok(!md.includes('ˋ') && !md.includes('·'), 'no look-alike characters');
  assert.ok(md.includes(tick), md);
});
