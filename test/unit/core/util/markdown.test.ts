import assert from 'node:assert/strict';
import { test } from 'node:test';
import { codeCell, codeSpan } from '../../../../src/core/util/markdown';

// markdown-it is what VS Code's Markdown preview renders with (installed with @vscode/vsce; it ships no types).
const MarkdownIt = require('markdown-it') as new () => { render(source: string): string };
const md = new MarkdownIt();
const decode = (html: string) =>
  html
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');

/** The text of the first <code> element markdown-it renders. */
function rendered(markdown: string): string | undefined {
  const match = /<code>([\s\S]*?)<\/code>/.exec(md.render(markdown));
  return match ? decode(match[1]!) : undefined;
}

const tokens = [
  '`',
  '``',
  'a`b',
  '```js',
  ' `x` ',
  '`leading',
  'trailing`',
  ' two spaces ',
  ' ',
  '  ',
  'a|b',
  '\\|',
  '<b>&amp;</b>',
  '*not emphasis*',
  '·',
  'ˋ',
];

test('a code span renders exactly its text, backticks and all, in prose', () => {
  for (const token of tokens) assert.equal(rendered(`Token ${codeSpan(token)} here.`), token, JSON.stringify(token));
});

test('in a GFM table cell too, pipes included', () => {
  for (const token of tokens) {
    const table = `| # | Token |\n|---|---|\n| 1 | ${codeSpan(token, true)} |\n`;
    assert.equal(rendered(table), token, JSON.stringify(token));
  }
});

test('no look-alike characters are substituted', () => {
  assert.ok(!codeSpan('a`b').includes('ˋ'));
  assert.equal(codeSpan(''), '');
});

test('a table cell shows a token as itself; only line breaks and control characters become escapes', () => {
  const cell = (token: string) => rendered(`| Token |\n|---|\n| ${codeCell(token)} |\n`);
  for (const token of ['`', 'say "hi"', 'C:\\path', ' a ', '|', '😀']) assert.equal(cell(token), token, JSON.stringify(token));
  assert.equal(cell('a\nb'), 'a\\nb');
  assert.equal(cell('\t'), '\\t');
  assert.equal(cell('\u0000'), '\\u0000');
  assert.equal(cell('x\u2028y'), 'x\\u2028y');
});
