import assert from 'node:assert/strict';
import { test } from 'node:test';
import { codeSpan } from '../../src/util/markdown';

// markdown-it is what VS Code's Markdown preview renders with (installed with @vscode/vsce; it ships no types).
const MarkdownIt = require('markdown-it') as new () => { render(source: string): string };
const md = new MarkdownIt();
const decode = (html: string) => html.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&');

/** The text of the first <code> element markdown-it renders. */
function rendered(markdown: string): string | undefined {
  const match = /<code>([\s\S]*?)<\/code>/.exec(md.render(markdown));
  return match ? decode(match[1]!) : undefined;
}

const tokens = ['`', '``', 'a`b', '```js', ' `x` ', '`leading', 'trailing`', ' two spaces ', ' ', '  ', 'a|b', '\\|', '<b>&amp;</b>', '*not emphasis*', '·', 'ˋ'];

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
