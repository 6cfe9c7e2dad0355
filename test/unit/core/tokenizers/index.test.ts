/**
 * The incremental index against the truth: after every one of hundreds of seeded random edits
 * (typing, deleting, pasting, edits at the ends, making and breaking <|endoftext|>, whitespace runs,
 * CRLF), DocumentIndex.count must equal tokenizer.count(newText). A failure is replayed on a small
 * window of the document and printed as a self-contained reproducer.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DocumentIndex, loadTokenizerSync, mergeChanges, type Tokenizer } from '../../../../src/core/tokenizers/index';
import { Rng, charBoundary, randomSlice, randomText, realText, SPECIAL_TEXTS } from '../../../bench/textgen';

const corpus = realText();
const SEED = Number(process.env.INDEX_SEED ?? 0x1de4);
const EDITS = Number(process.env.INDEX_EDITS ?? 400);

interface Edit {
  start: number;
  oldEnd: number;
  text: string;
  kind: string;
}

const show = (s: string): string => {
  const json = JSON.stringify(s);
  return json.length > 300 ? `${json.slice(0, 300)}… (${s.length} units)` : json;
};

const apply = (doc: string, e: Edit): string => doc.slice(0, e.start) + e.text + doc.slice(e.oldEnd);

/** A position in `doc` that does not split a surrogate pair. */
const at = (rng: Rng, doc: string): number => charBoundary(doc, rng.int(0, doc.length));

function findNear(rng: Rng, doc: string, needle: string): number {
  const from = rng.int(0, doc.length);
  const i = doc.indexOf(needle, from);
  return i >= 0 ? i : doc.indexOf(needle);
}

const TYPED = [
  ' ',
  ' ',
  'e',
  'a',
  'Z',
  '1',
  '\n',
  '\r',
  '\r\n',
  '\t',
  "'",
  's',
  '<',
  '|',
  '>',
  '.',
  ',',
  '👍',
  '🏽',
  '\u200d',
  '的',
  'é',
  '\u0301',
  'я',
  'ا',
];

/** A random edit of one of the kinds real typing and pasting produce, plus the hostile ones. */
function randomEdit(rng: Rng, doc: string, allowSurrogateSplits: boolean): Edit {
  const k = rng.int(0, 99);
  if (k < 22) {
    const p = at(rng, doc);
    return { start: p, oldEnd: p, text: rng.pick(TYPED), kind: 'type a character' };
  }
  if (k < 34) {
    const p = at(rng, doc);
    const end = charBoundary(doc, Math.min(doc.length, p + (rng.chance(0.9) ? rng.int(1, 40) : rng.int(40, 3000))));
    return { start: p, oldEnd: end, text: '', kind: 'delete' };
  }
  if (k < 44) {
    const p = at(rng, doc);
    const end = charBoundary(doc, Math.min(doc.length, p + rng.int(0, 60)));
    return { start: p, oldEnd: end, text: randomText(rng, rng.int(1, 5)), kind: 'replace' };
  }
  if (k < 51) {
    const p = at(rng, doc);
    const pasted = corpus && rng.chance(0.6) ? randomSlice(rng, corpus, rng.int(50, 4000)) : randomText(rng, rng.int(5, 60));
    return { start: p, oldEnd: p, text: pasted, kind: 'multi-line paste' };
  }
  if (k < 57) {
    // The very start and the very end.
    const atStart = rng.chance(0.5);
    const p = atStart ? 0 : doc.length;
    if (rng.chance(0.5) || doc.length === 0)
      return { start: p, oldEnd: p, text: rng.pick([...TYPED, 'Hello world', '<|endoftext|>', '\n\n', '    ']), kind: 'insert at an end' };
    const n = rng.int(1, 20);
    return atStart
      ? { start: 0, oldEnd: charBoundary(doc, Math.min(n, doc.length)), text: '', kind: 'delete at the start' }
      : { start: charBoundary(doc, Math.max(0, doc.length - n)), oldEnd: doc.length, text: '', kind: 'delete at the end' };
  }
  if (k < 70) {
    // Make and break special-token text.
    const j = rng.int(0, 5);
    const sp = rng.pick(SPECIAL_TEXTS);
    const i = findNear(rng, doc, '<|endoftext|>');
    if (j === 0 && i >= 0) {
      const p = i + rng.int(1, 12);
      return { start: p, oldEnd: p, text: rng.pick(['x', ' ', '\n', '|', '<']), kind: 'split <|endoftext|>' };
    }
    if (j === 1 && i >= 0) {
      const p = i + rng.int(0, 12);
      return { start: p, oldEnd: p + 1, text: '', kind: 'break <|endoftext|> by deleting a character' };
    }
    if (j === 2) {
      // Leave half of a special token; a later edit (j === 3) may complete it.
      const p = at(rng, doc);
      const cut = rng.int(1, sp.length - 1);
      return { start: p, oldEnd: p, text: sp.slice(0, cut) + sp.slice(cut + 1), kind: `insert ${sp} missing one character` };
    }
    if (j === 3) {
      // Complete a broken one: find '<|endoftex|>'-like text by looking for '<|' and re-inserting what is missing.
      const b = findNear(rng, doc, '<|');
      if (b >= 0) {
        for (const s of SPECIAL_TEXTS) {
          for (let cut = 1; cut < s.length; cut++) {
            if (doc.startsWith(s.slice(0, cut) + s.slice(cut + 1), b))
              return { start: b + cut, oldEnd: b + cut, text: s[cut]!, kind: `complete ${s}` };
          }
        }
      }
    }
    if (j === 4) {
      const p = at(rng, doc);
      return { start: p, oldEnd: p, text: sp, kind: 'insert special-token text' };
    }
    const p = at(rng, doc);
    return {
      start: p,
      oldEnd: charBoundary(doc, Math.min(doc.length, p + rng.int(0, 3))),
      text: rng.pick(['<|endof', 'text|>', '<|', '|>', 'endoftext']),
      kind: 'insert a special-token fragment',
    };
  }
  if (k < 82) {
    // Whitespace runs.
    const j = rng.int(0, 3);
    const space = findNear(rng, doc, '  ');
    if (j === 0 || space < 0) {
      const p = at(rng, doc);
      return {
        start: p,
        oldEnd: p,
        text: rng.pick([' ', '\t', '\n']).repeat(rng.pick([1, 2, 3, 4, 8, rng.int(5, 300)])),
        kind: 'insert a whitespace run',
      };
    }
    if (j === 1) return { start: space, oldEnd: space + 1, text: '', kind: 'shorten a whitespace run' };
    if (j === 2)
      return {
        start: space + 1,
        oldEnd: space + 1,
        text: rng.pick([' ', 'x', '\n', '\t', "'s", '1']),
        kind: 'insert into a whitespace run',
      };
    const p = at(rng, doc);
    return { start: p, oldEnd: p, text: ' \n \n  \n', kind: 'insert mixed blank lines' };
  }
  if (k < 94) {
    // CRLF.
    const j = rng.int(0, 3);
    if (j === 0) {
      const n = findNear(rng, doc, '\n');
      if (n >= 0 && doc[n - 1] !== '\r') return { start: n, oldEnd: n, text: '\r', kind: 'LF to CRLF' };
    }
    if (j === 1) {
      const n = findNear(rng, doc, '\r\n');
      if (n >= 0) return { start: n, oldEnd: n + 1, text: '', kind: 'CRLF to LF' };
    }
    if (j === 2) {
      const n = findNear(rng, doc, '\r\n');
      if (n >= 0) return { start: n + 1, oldEnd: n + 1, text: rng.pick(['x', ' ', '\r', '\n']), kind: 'split a CRLF' };
    }
    const p = at(rng, doc);
    return { start: p, oldEnd: p, text: rng.pick(['\r\n', '\r\n\r\n', 'line\r\nline\r\n', '\r', '\n\r']), kind: 'insert CRLF' };
  }
  if (allowSurrogateSplits) {
    // Edits that cut an emoji in half: VS Code never sends them, but the count must stay exact anyway.
    for (let tries = 0; tries < 20; tries++) {
      const p = rng.int(1, Math.max(1, doc.length - 1));
      const c = doc.charCodeAt(p);
      if (c >= 0xdc00 && c <= 0xdfff)
        return rng.chance(0.5)
          ? { start: p, oldEnd: p, text: 'x', kind: 'split a surrogate pair' }
          : { start: p, oldEnd: p + 1, text: '', kind: 'delete a low surrogate' };
    }
  }
  const p = at(rng, doc);
  return { start: p, oldEnd: p, text: rng.pick(TYPED), kind: 'type a character' };
}

/** Replays one edit on a small window of the old document: a small failing case, if the bug is local. */
function reproduce(tokenizer: Tokenizer, oldDoc: string, edit: Edit): string {
  for (const margin of [40, 100, 300, 1000, 5000]) {
    const from = charBoundary(oldDoc, Math.max(0, edit.start - margin));
    const to = charBoundary(oldDoc, Math.min(oldDoc.length, edit.oldEnd + margin));
    const small = oldDoc.slice(from, to);
    const e = { ...edit, start: edit.start - from, oldEnd: edit.oldEnd - from };
    const next = apply(small, e);
    const index = DocumentIndex.buildSync(tokenizer, small);
    index.update(e.start, e.oldEnd, e.start + e.text.length, next);
    const want = tokenizer.count(next);
    if (index.count !== want) {
      return (
        `  reproducer: index = DocumentIndex.buildSync(tokenizer, ${show(small)});\n` +
        `              index.update(${e.start}, ${e.oldEnd}, ${e.start + e.text.length}, newText) with inserted text ${show(e.text)}\n` +
        `              expected ${want} (tokenizer.count(newText)), got ${index.count}`
      );
    }
  }
  return '  (does not reproduce on a window of the document: depends on earlier edits)';
}

function hostileDocument(rng: Rng): string {
  const parts: string[] = [];
  for (let i = 0; i < 60; i++) {
    const k = rng.int(0, 9);
    if (k === 0) parts.push('<|endoftext|>'.repeat(rng.int(1, 3)));
    else if (k === 1) parts.push(' '.repeat(rng.int(1, 400)));
    else if (k === 2) parts.push('line one\r\nline two\r\n\r\n\tindented\r\n');
    else if (k === 3) parts.push('a'.repeat(rng.int(100, 2000)));
    else if (k === 4) parts.push('👨‍👩‍👧‍👦👍🏽🇺🇸'.repeat(rng.int(1, 20)));
    else if (k === 5) parts.push('1234567890'.repeat(rng.int(1, 10)));
    else parts.push(randomText(rng, rng.int(5, 40)));
  }
  return parts.join('');
}

interface Kind {
  label: string;
  name: string;
  special?: boolean;
}

const KINDS: Kind[] = [
  { label: 'cl100k_base', name: 'cl100k_base' },
  { label: "cl100k_base (specialTokens: 'special')", name: 'cl100k_base', special: true },
  { label: 'o200k_base', name: 'o200k_base' },
  { label: "o200k_harmony (specialTokens: 'special')", name: 'o200k_harmony', special: true },
  { label: 'p50k_base', name: 'p50k_base' },
  { label: "p50k_edit (specialTokens: 'special')", name: 'p50k_edit', special: true },
  { label: 'gpt2', name: 'gpt2' },
  { label: 'character', name: 'character' },
  { label: 'whitespace', name: 'whitespace' },
];

describe('DocumentIndex stays exact under random edits', () => {
  KINDS.forEach((kind, kindNo) => {
    test(`${kind.label}: ${EDITS} edits on a corpus slice and hostile documents (seed ${SEED + kindNo})`, () => {
      const tokenizer = loadTokenizerSync(kind.name, kind.special ? { specialTokens: 'special' } : {});
      const rng = new Rng(SEED + kindNo);
      const documents: Array<[string, string, number, boolean]> = [
        [
          'corpus slice',
          corpus ? randomSlice(rng, corpus, rng.int(20_000, 100_000)) : randomText(rng, 3000),
          Math.round(EDITS * 0.55),
          false,
        ],
        ['hostile document', hostileDocument(rng), Math.round(EDITS * 0.3), false],
        ['hostile document, surrogate pairs split', hostileDocument(rng), Math.round(EDITS * 0.1), true],
        ['empty document', '', Math.round(EDITS * 0.05), false],
      ];
      for (const [what, initial, edits, splits] of documents) {
        let doc = initial;
        const index = DocumentIndex.buildSync(tokenizer, doc);
        assert.equal(index.count, tokenizer.count(doc), `${kind.label}: buildSync count on the ${what}`);
        for (let n = 0; n < edits; n++) {
          const edit = randomEdit(rng, doc, splits);
          const next = apply(doc, edit);
          index.update(edit.start, edit.oldEnd, edit.start + edit.text.length, next);
          const want = tokenizer.count(next);
          if (index.count !== want) {
            assert.fail(
              `${kind.label}, ${what} (seed ${SEED + kindNo}, edit ${n}: ${edit.kind}): index.count ${index.count} != tokenizer.count ${want}\n` +
                `  edit: [${edit.start}, ${edit.oldEnd}) of ${doc.length} replaced by ${show(edit.text)}\n` +
                `  around: ${show(doc.slice(Math.max(0, edit.start - 60), edit.oldEnd + 60))}\n` +
                reproduce(tokenizer, doc, edit),
            );
          }
          doc = next;
        }
        assert.equal(
          DocumentIndex.buildSync(tokenizer, doc).count,
          index.count,
          `${kind.label}: a fresh index agrees after the edits on the ${what}`,
        );
      }
    });
  });

  test('async build gives the same count as buildSync, and the index keeps working after it', async () => {
    const tokenizer = loadTokenizerSync('cl100k_base');
    const rng = new Rng(SEED + 100);
    const doc = corpus ? corpus.slice(0, 300_000) : randomText(rng, 20_000);
    const index = await DocumentIndex.build(tokenizer, doc);
    assert.equal(index.count, DocumentIndex.buildSync(tokenizer, doc).count);
    assert.equal(index.count, tokenizer.count(doc));
    let text = doc;
    for (let n = 0; n < 50; n++) {
      const edit = randomEdit(rng, text, false);
      text = apply(text, edit);
      index.update(edit.start, edit.oldEnd, edit.start + edit.text.length, text);
      assert.equal(index.count, tokenizer.count(text), `after edit ${n} (${edit.kind})`);
    }
  });
});

/** Applies VS Code-style sequential changes: each offset is into the text as left by the changes before it. */
function applyChanges(text: string, changes: readonly { offset: number; length: number; text: string }[]): string {
  for (const c of changes) text = text.slice(0, c.offset) + c.text + text.slice(c.offset + c.length);
  return text;
}

describe('mergeChanges folds one event of several changes into one envelope', () => {
  const check = (tokenizer: Tokenizer, doc: string, changes: { offset: number; length: number; text: string }[], label: string): string => {
    const next = applyChanges(doc, changes);
    const env = mergeChanges(changes);
    assert.ok(env, `${label}: an envelope`);
    const what = `${label}: changes ${JSON.stringify(changes.map((c) => [c.offset, c.length, c.text]))} gave ${JSON.stringify(env)}`;
    assert.ok(env.start >= 0 && env.start <= env.oldEnd && env.oldEnd <= doc.length, `old range valid: ${what}`);
    assert.ok(env.start <= env.newEnd && env.newEnd <= next.length, `new range valid: ${what}`);
    assert.equal(doc.length - env.oldEnd, next.length - env.newEnd, `same text after the envelope: ${what}`);
    assert.equal(next.slice(0, env.start), doc.slice(0, env.start), `text before the envelope unchanged: ${what}`);
    assert.equal(next.slice(env.newEnd), doc.slice(env.oldEnd), `text after the envelope unchanged: ${what}`);
    const index = DocumentIndex.buildSync(tokenizer, doc);
    index.update(env.start, env.oldEnd, env.newEnd, next);
    assert.equal(index.count, tokenizer.count(next), `index count after the merged update: ${what}`);
    return next;
  };

  test('single change, and no change', () => {
    assert.deepEqual(mergeChanges([{ offset: 3, length: 2, text: 'abc' }]), { start: 3, oldEnd: 5, newEnd: 6 });
    assert.equal(mergeChanges([]), undefined);
  });

  test('hand-checked multi-cursor events', () => {
    const tk = loadTokenizerSync('cl100k_base');
    const doc = 'one two three four five\nsix seven eight\r\nnine ten';
    // Multi-cursor typing: VS Code lists the changes bottom-up (descending offsets).
    check(
      tk,
      doc,
      [
        { offset: 40, length: 0, text: 'X' },
        { offset: 20, length: 0, text: 'X' },
        { offset: 4, length: 0, text: 'X' },
      ],
      'descending inserts',
    );
    // Ascending: each offset already accounts for the changes before it.
    check(
      tk,
      doc,
      [
        { offset: 4, length: 0, text: 'X' },
        { offset: 21, length: 0, text: 'X' },
        { offset: 42, length: 0, text: 'X' },
      ],
      'ascending inserts',
    );
    check(
      tk,
      doc,
      [
        { offset: 30, length: 5, text: '' },
        { offset: 0, length: 3, text: 'ONE ONE' },
      ],
      'descending replace and delete',
    );
    check(
      tk,
      doc,
      [
        { offset: 0, length: 3, text: '' },
        { offset: 10, length: 0, text: '<|endoftext|>' },
      ],
      'ascending delete then insert',
    );
    check(
      tk,
      doc,
      [
        { offset: 10, length: 2, text: 'abcdef' },
        { offset: 12, length: 4, text: '' },
      ],
      'overlapping changes',
    );
    check(
      tk,
      doc,
      [
        { offset: doc.length, length: 0, text: '\n' },
        { offset: 0, length: 0, text: '// ' },
      ],
      'both ends',
    );
  });

  for (const name of ['cl100k_base', 'o200k_base', 'character', 'whitespace']) {
    for (const special of name === 'cl100k_base' ? [false, true] : [false]) {
      test(`random events of 2-8 changes, descending, ascending and mixed: ${name}${special ? ' (special)' : ''}`, () => {
        const tk = loadTokenizerSync(name, special ? { specialTokens: 'special' } : {});
        const rng = new Rng(SEED + 200);
        let doc = corpus ? randomSlice(rng, corpus, 8000) : randomText(rng, 400);
        for (let n = 0; n < 120; n++) {
          const order = rng.pick(['descending', 'ascending', 'mixed'] as const);
          const k = rng.int(2, 8);
          const changes: { offset: number; length: number; text: string }[] = [];
          let text = doc;
          // Cursor positions in the original document; converted to sequential offsets as we go.
          const spots = Array.from({ length: k }, () => rng.int(0, doc.length)).sort((a, b) => a - b);
          if (order === 'descending') spots.reverse();
          let shift = 0;
          for (const spot of spots) {
            const length = rng.chance(0.5) ? 0 : rng.int(1, 12);
            const newText = rng.pick(['', 'x', ' ', '\n', '\r\n', '<|endoftext|>', '<|', '|>', '  ', randomText(rng, 2)]);
            let offset: number;
            if (order === 'descending') offset = spot;
            else if (order === 'ascending') offset = spot + shift;
            else offset = rng.int(0, text.length);
            offset = Math.min(offset, text.length);
            const len = Math.min(length, text.length - offset);
            const change = { offset, length: len, text: newText };
            changes.push(change);
            text = applyChanges(text, [change]);
            shift += newText.length - len;
          }
          doc = check(tk, doc, changes, `${order} event ${n} (seed ${SEED + 200})`);
        }
      });
    }
  }
});
