/**
 * unstableRuns decides where Unicode normalization may cut text. It finds its characters a block at a time;
 * this checks it against the definition, one code point at a time: a character the form changes, a mark, or a
 * character that follows the first in some canonical decomposition.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { unstableRuns, type UnicodeForm } from '../../../../../src/core/tokenizers/engine/normalize';

const RANGES: [number, number][] = [
  [0xa0, 0x3ffff],
  [0xe0000, 0xe0fff],
];

function* codePoints(): Generator<number> {
  for (const [from, to] of RANGES) for (let c = from; c <= to; c++) if (c < 0xd800 || c > 0xdfff) yield c;
}

function expected(form: UnicodeForm): Set<number> {
  const out = new Set<number>();
  for (const c of codePoints()) {
    const s = String.fromCodePoint(c);
    if (s.normalize(form) !== s || /\p{M}/u.test(s)) out.add(c);
    for (const x of [...s.normalize('NFD')].slice(1)) if (!/\p{M}/u.test(x)) out.add(x.codePointAt(0)!);
  }
  return out;
}

for (const form of ['NFC', 'NFD', 'NFKC', 'NFKD'] as const) {
  test(`${form}: the unstable characters are those of the one-at-a-time definition`, () => {
    const want = expected(form);
    const re = new RegExp(`^(?:${unstableRuns(form).source})$`, 'u');
    const wrong: string[] = [];
    for (const c of codePoints()) {
      if (re.test(String.fromCodePoint(c)) !== want.has(c)) wrong.push(`U+${c.toString(16).toUpperCase()}`);
      if (wrong.length > 10) break;
    }
    assert.deepEqual(wrong, []);
  });
}
