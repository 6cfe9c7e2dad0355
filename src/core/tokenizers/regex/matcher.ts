/**
 * The linear matcher: an Oniguruma pattern from a file (a tokenizer.json's Split or Replace) run in time linear in
 * the text for a whole global scan, with Oniguruma's leftmost-first matches. V8's RegExp backtracks: `(a+)+b` on
 * 30 `a`s takes seconds, and a pattern in a downloaded file runs on the extension host's thread.
 *
 * Backtracking over the program (compile.ts) with memoization of failed SPLIT states (step, position), after
 * Davis, Servant & Lee, "Using Selective Memoization to Defeat Regular Expression Denial of Service (ReDoS)",
 * IEEE S&P 2021. With no captures or back-references, and no loop that can go round without consuming (the
 * parser refuses those), whether a state can reach MATCH does not depend on the path to it, so a failure is
 * kept for the whole scan of a text: each state fails at most once, and a global scan costs
 * O(steps × branches × text length). Inside a lookaround only reaching its end matters, so successes are kept
 * too; a lookbehind (fixed length) runs its body from that many code points back.
 *
 * Memory: two bits per branch point (at most MAX_BRANCHES) per position, in blocks of 1024 positions allocated
 * when a scan first reaches them and dropped once the scan has passed them: at most MAX_BRANCHES / 4 = 64 bytes
 * per character of the stretch between the scan's start and the farthest point a match attempt looked at.
 */
import * as ops from './compile';
import type { LookStep, Program } from './compile';

// Read once: a module's exports can be getters (CommonJS output), too slow to read at every step.
const { CHAR, SET, SPLIT, JMP, LOOK, MATCH } = ops;

/** What the call sites use of a 'g' RegExp. */
export interface Matcher {
  lastIndex: number;
  exec(subject: string): { readonly index: number; readonly 0: string } | null;
}

const BLOCK_BITS = 10;
const BLOCK = 1 << BLOCK_BITS;

/** Two bits per branch and position: FAILED, and (in lookaround bodies) REACHES_END. */
class Memo {
  private blocks: (Uint32Array | undefined)[] = [];
  private low = 0;

  constructor(private readonly width: number) {}

  get(slot: number, pos: number): boolean {
    const block = this.blocks[pos >> BLOCK_BITS];
    if (!block) return false;
    const bit = (pos & (BLOCK - 1)) * this.width + slot;
    return ((block[bit >>> 5]! >>> (bit & 31)) & 1) === 1;
  }

  set(slot: number, pos: number): void {
    const k = pos >> BLOCK_BITS;
    const block = (this.blocks[k] ??= new Uint32Array((this.width * BLOCK + 31) >>> 5));
    const bit = (pos & (BLOCK - 1)) * this.width + slot;
    block[bit >>> 5]! |= 1 << (bit & 31);
  }

  /** Drops the blocks wholly before pos. */
  dropBefore(pos: number): void {
    const end = Math.min(pos >> BLOCK_BITS, this.blocks.length);
    for (; this.low < end; this.low++) this.blocks[this.low] = undefined;
  }

  clear(): void {
    this.blocks = [];
    this.low = 0;
  }
}

/** The code point at pos (a lone surrogate stands for itself). */
function codePointAt(s: string, pos: number): number {
  const c = s.charCodeAt(pos);
  if (c >= 0xd800 && c <= 0xdbff && pos + 1 < s.length) {
    const d = s.charCodeAt(pos + 1);
    if (d >= 0xdc00 && d <= 0xdfff) return ((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000;
  }
  return c;
}

/** The start of the code point `count` code points before pos, or -1 if the text starts sooner. */
function back(s: string, pos: number, count: number): number {
  for (let k = 0; k < count; k++) {
    if (pos <= 0) return -1;
    const lo = s.charCodeAt(pos - 1);
    const hi = pos >= 2 ? s.charCodeAt(pos - 2) : 0;
    pos -= lo >= 0xdc00 && lo <= 0xdfff && hi >= 0xd800 && hi <= 0xdbff ? 2 : 1;
  }
  return pos;
}

export class LinearMatcher implements Matcher {
  lastIndex = 0;
  private subject = '';
  private readonly memo: Memo;
  /** The SPLIT states on the current path (a stack shared by nested lookaround runs), and which branch each is on. */
  private stackStep = new Int32Array(64);
  private stackPos = new Int32Array(64);
  private stackSecond = new Uint8Array(64);
  private depth = 0;

  constructor(private readonly program: Program) {
    this.memo = new Memo(2 * program.branches);
  }

  exec(s: string): { readonly index: number; readonly 0: string } | null {
    if (s !== this.subject) {
      this.subject = s;
      this.memo.clear();
    }
    const start = this.lastIndex;
    this.memo.dropBefore(back(s, Math.min(start, s.length), this.program.behindReach + 1));
    for (let p = start; p <= s.length; p += codePointAt(s, p) > 0xffff ? 2 : 1) {
      const end = this.run(0, p, false);
      if (end >= 0) {
        this.lastIndex = end;
        return { index: p, 0: s.slice(p, end) };
      }
    }
    this.lastIndex = 0;
    this.subject = '';
    this.memo.clear();
    return null;
  }

  /**
   * Where the first path (in Oniguruma's order) from step pc at pos reaches MATCH, or -1. existence: inside a
   * lookaround, where any path will do and states that reach the end are remembered as such.
   */
  private run(pc: number, pos: number, existence: boolean): number {
    const { op, a, b, branch } = this.program;
    const memo = this.memo;
    const base = this.depth;
    for (;;) {
      let failed = false;
      while (!failed) {
        switch (op[pc]) {
          case CHAR:
          case SET: {
            const cp = this.consumes(pc, pos);
            if (cp < 0) failed = true;
            else {
              pos += cp > 0xffff ? 2 : 1;
              pc = b[pc]!;
            }
            break;
          }
          case SPLIT: {
            const slot = 2 * branch[pc]!;
            const first = a[pc]!;
            if (memo.get(slot, pos)) failed = true;
            else if (existence && memo.get(slot + 1, pos)) return this.reached(base, pos, existence);
            // A preferred branch that starts with a character not here needs no way back (alternatives of literals,
            // the end of a run): the state may then be explored again, but only as far as the next SPLIT's memo.
            else if ((op[first] === CHAR || op[first] === SET) && this.consumes(first, pos) < 0) pc = b[pc]!;
            else {
              this.push(pc, pos);
              pc = first;
            }
            break;
          }
          case JMP:
            pc = a[pc]!;
            break;
          case LOOK:
            if (this.look(this.program.looks[a[pc]!]!, pos)) pc++;
            else failed = true;
            break;
          case MATCH:
            return this.reached(base, pos, existence);
        }
      }
      // Back to the latest SPLIT with a branch left; a SPLIT whose branches both failed fails for good.
      for (;;) {
        if (this.depth === base) return -1;
        const top = this.depth - 1;
        if (!this.stackSecond[top]) {
          this.stackSecond[top] = 1;
          pc = b[this.stackStep[top]!]!;
          pos = this.stackPos[top]!;
          break;
        }
        memo.set(2 * branch[this.stackStep[top]!]!, this.stackPos[top]!);
        this.depth--;
      }
    }
  }

  /** The code point at pos if the CHAR or SET step pc takes it, else -1. */
  private consumes(pc: number, pos: number): number {
    const s = this.subject;
    if (pos >= s.length) return -1;
    const cp = codePointAt(s, pos);
    const { op, a, sets } = this.program;
    return (op[pc] === CHAR ? cp === a[pc] : sets[a[pc]!]!.has(cp)) ? cp : -1;
  }

  private push(pc: number, pos: number): void {
    const d = this.depth++;
    if (d === this.stackStep.length) this.grow();
    this.stackStep[d] = pc;
    this.stackPos[d] = pos;
    this.stackSecond[d] = 0;
  }

  private grow(): void {
    const size = this.stackStep.length * 2;
    const step = new Int32Array(size);
    const pos = new Int32Array(size);
    const second = new Uint8Array(size);
    step.set(this.stackStep);
    pos.set(this.stackPos);
    second.set(this.stackSecond);
    [this.stackStep, this.stackPos, this.stackSecond] = [step, pos, second];
  }

  /** MATCH reached: inside a lookaround, every SPLIT state on the path reaches the end. */
  private reached(base: number, pos: number, existence: boolean): number {
    if (existence)
      for (let d = base; d < this.depth; d++) this.memo.set(2 * this.program.branch[this.stackStep[d]!]! + 1, this.stackPos[d]!);
    this.depth = base;
    return pos;
  }

  private look(step: LookStep, pos: number): boolean {
    let found = false;
    for (const alt of step.alts) {
      const from = step.behind ? back(this.subject, pos, alt.length) : pos;
      if (from >= 0 && this.run(alt.start, from, true) >= 0) {
        found = true;
        break;
      }
    }
    return found !== step.negate;
  }
}
