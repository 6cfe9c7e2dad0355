/**
 * The linear matcher: an Oniguruma pattern from a file (a tokenizer.json's Split or Replace) run in time linear in
 * the text for a whole global scan, with Oniguruma's leftmost-first matches. V8's RegExp backtracks: `(a+)+b` on
 * 30 `a`s takes seconds, and a pattern in a downloaded file runs on the extension host's thread.
 *
 * Backtracking over the program (compile.ts) with memoization of failed SPLIT states (step, position), after
 * Davis, Servant & Lee, "Using Selective Memoization to Defeat Regular Expression Denial of Service (ReDoS)",
 * IEEE S&P 2021. With no captures, back-references or anchors, and no loop that can go round without consuming
 * (the parser refuses those), whether a state can reach MATCH depends only on the subject, not on the path to it
 * nor on where the search started, so a failure is kept for every search of the same subject: each state fails at
 * most once, and a global scan costs O(steps × branches × text length). Inside a lookaround only reaching its end
 * matters, so successes are kept too; a lookbehind (fixed length) runs its body from that many code points back.
 * An exec that found nothing remembers it: a later search of the subject from there on answers at once.
 *
 * That bound is linear, but its factor can be the program's size (a long counted repeat of a group, `(?:ab){500}c`,
 * costs a thousand steps per character), so one exec may be seconds of work. Lookarounds run on an explicit stack
 * (no recursion), so the whole state of a search is a few numbers and arrays: inside withWorkBudget an exec
 * stops after so many steps and answers UNFINISHED, and the next exec on the same subject from the same
 * lastIndex goes on from there. The sliced scans (sliced.ts) run this way and yield between the pieces of work.
 *
 * A RUN step (n code points of one character or set, compile.ts) keeps, per step, a stretch of the subject known to
 * be all such characters (BMP ones: n code points are n units) and extends it as searches move on: checking n
 * characters at each of many starts costs what reading the stretch once does. It counts as the characters it read
 * towards the work budget. A stretch with a code point past the BMP is walked one code point at a time.
 *
 * Memory: two bits per branch point (at most MAX_BRANCHES) per position, in blocks of 1024 positions allocated
 * when a search first reaches them and dropped once a search starts past them: at most MAX_BRANCHES / 4 = 64 bytes
 * per character of the stretch between the search's start and the farthest point a match attempt looked at.
 */
import * as ops from './compile';
import type { LookStep, Program, RunStep } from './compile';

// Read once: a module's exports can be getters (CommonJS output), too slow to read at every step.
const { CHAR, SET, SPLIT, JMP, LOOK, MATCH, RUN } = ops;

/** A match: where it starts, and its text. */
export interface MatchFound {
  readonly index: number;
  readonly 0: string;
}

/**
 * exec's answer when the work budget (withWorkBudget) ran out before it knew: called again on the same subject
 * from the same lastIndex, it goes on where it stopped.
 */
export const UNFINISHED: unique symbol = Symbol('unfinished');

/** What the call sites use of a 'g' RegExp (which always finishes). */
export interface Matcher {
  lastIndex: number;
  exec(subject: string): MatchFound | null | typeof UNFINISHED;
}

/** No budget: a count of steps that run refills (a small integer keeps the step loop on integer arithmetic). */
const UNBUDGETED = 1 << 30;
/** Under a budget, the clock is read every this many steps. */
const CHECK_STEPS = 2048;
/** Steps run may take before it asks refill for more (UNBUDGETED outside withWorkBudget). */
let workLeft = UNBUDGETED;
let budgeted = false;
/** Under a budget: the steps left after the current stretch, and the time (performance.now()) the work must stop. */
let stepsLeft = 0;
let deadline = Infinity;

/**
 * Runs fn with at most `steps` steps of matcher work between all its execs, and none after `ms` milliseconds
 * (the clock is read every CHECK_STEPS steps, so a few more may run): an exec that would take more answers
 * UNFINISHED. Outside, execs run to the end.
 */
export function withWorkBudget<T>(steps: number, fn: () => T, ms = Infinity): T {
  const outer = [workLeft, budgeted, stepsLeft, deadline] as const;
  [workLeft, budgeted, stepsLeft, deadline] = [0, true, steps, performance.now() + ms];
  try {
    return fn();
  } finally {
    [workLeft, budgeted, stepsLeft, deadline] = outer;
  }
}

/** The next stretch of steps run may take: 0 when the budget is spent. */
function refill(): number {
  if (!budgeted) return UNBUDGETED;
  if (stepsLeft <= 0 || (deadline !== Infinity && performance.now() >= deadline)) return 0;
  const stretch = Math.min(CHECK_STEPS, stepsLeft);
  stepsLeft -= stretch;
  return stretch;
}

/** run's answer when out of work. */
const PAUSED = -2;

/** A lookaround being run: its LOOK step and position, which alternative, and the state of the run around it. */
interface LookFrame {
  step: LookStep;
  pc: number;
  pos: number;
  alt: number;
  base: number;
  existence: boolean;
}

/** For a RUN step: [lo, hi) holds only BMP characters of the run's kind; `stopped`: the one at hi is not (or the text ends). */
interface RunSpan {
  lo: number;
  hi: number;
  stopped: boolean;
}

const SURROGATE = /[\ud800-\udfff]/;

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

  /** Drops the blocks wholly before pos; false (nothing done) when blocks after pos's were already dropped. */
  dropBefore(pos: number): boolean {
    const k = pos >> BLOCK_BITS;
    if (k < this.low) return false;
    const end = Math.min(k, this.blocks.length);
    for (; this.low < end; this.low++) this.blocks[this.low] = undefined;
    return true;
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
  /** For the current subject: no match starts at or after this offset (an exec from there found none). */
  private nullFrom = Infinity;
  /** The SPLIT states on the current path (a stack shared by the lookaround bodies being run), and which branch each is on. */
  private stackStep = new Int32Array(64);
  private stackPos = new Int32Array(64);
  private stackSecond = new Uint8Array(64);
  private depth = 0;
  /** The lookarounds being run, innermost last (the first lookDepth entries; the objects are reused). */
  private readonly frames: LookFrame[] = [];
  private lookDepth = 0;
  /** Where the run stands: its step, position, the stack depth its current body started at, and whether in a lookaround. */
  private pc = 0;
  private pos = 0;
  private base = 0;
  private existence = false;
  /** An exec that ran out of work: the lastIndex it was called with, and the start position its run is on. */
  private paused = false;
  private pausedFrom = 0;
  private start = 0;
  /** For each RUN step of the program, the stretch it has read of the current subject. */
  private readonly spans: RunSpan[];
  /** The current subject has no surrogate: every code point is one unit, and a lookbehind's start is a subtraction. */
  private oneUnitEach = true;
  /** The characters runEnd read, charged to the work budget. */
  private runRead = 0;

  constructor(private readonly program: Program) {
    this.memo = new Memo(2 * program.branches);
    this.spans = program.runs.map(() => ({ lo: -1, hi: -1, stopped: false }));
  }

  exec(s: string): MatchFound | null | typeof UNFINISHED {
    if (s !== this.subject) {
      this.subject = s;
      this.memo.clear();
      this.nullFrom = Infinity;
      this.paused = false;
      for (const span of this.spans) span.lo = span.hi = -1;
      this.oneUnitEach = !SURROGATE.test(s);
    }
    const from = this.lastIndex;
    if (!this.paused || from !== this.pausedFrom) {
      this.paused = false;
      if (from > s.length || from >= this.nullFrom) return this.none();
      // Memo entries hold for any start on the same subject; those before the start (and its lookbehind) can go.
      const floor = this.back(from, this.program.behindReach + 1);
      if (!this.memo.dropBefore(floor < 0 ? 0 : floor)) this.memo.clear();
      this.begin(from);
    }
    for (;;) {
      const end = this.run();
      if (end === PAUSED) {
        this.paused = true;
        this.pausedFrom = from;
        return UNFINISHED;
      }
      const p = this.start;
      if (end >= 0) {
        this.paused = false;
        this.lastIndex = end;
        return { index: p, 0: s.slice(p, end) };
      }
      const next = p + (codePointAt(s, p) > 0xffff ? 2 : 1);
      if (next > s.length || next >= this.nullFrom) break;
      this.begin(next);
    }
    this.nullFrom = from;
    return this.none();
  }

  private none(): null {
    this.paused = false;
    this.lastIndex = 0;
    return null;
  }

  /** A run of the program from position p. */
  private begin(p: number): void {
    this.start = p;
    this.pc = 0;
    this.pos = p;
    this.base = 0;
    this.depth = 0;
    this.lookDepth = 0;
    this.existence = false;
  }

  /**
   * Goes on with the run: where the first path (in Oniguruma's order) reaches the program's MATCH, -1 when none
   * does, or PAUSED when the work budget ran out (the state is kept for the next call). Inside a lookaround
   * (existence) any path will do, and states that reach the end are remembered as such.
   */
  private run(): number {
    const { op, a, b, branch } = this.program;
    const memo = this.memo;
    // Locals, as they change at every step; a step of -1 is a failed path. The lookaround methods answer the next
    // step (or -1) and leave the position in this.pos.
    let { pc, pos } = this;
    let work = workLeft;
    for (;;) {
      while (pc >= 0) {
        if (--work < 0 && (work = refill() - 1) < 0) return this.pause(pc, pos);
        switch (op[pc]) {
          case CHAR:
          case SET: {
            const cp = this.consumes(pc, pos);
            if (cp < 0) pc = -1;
            else {
              pos += cp > 0xffff ? 2 : 1;
              pc = b[pc]!;
            }
            break;
          }
          case SPLIT: {
            const slot = 2 * branch[pc]!;
            const first = a[pc]!;
            if (memo.get(slot, pos)) pc = -1;
            else if (this.existence && memo.get(slot + 1, pos)) {
              pc = this.bodyReached();
              pos = this.pos;
            }
            // A preferred branch that starts with a character not here needs no way back (alternatives of literals,
            // the end of a run): the state may then be explored again, but only as far as the next SPLIT's memo.
            else if ((op[first] === CHAR || op[first] === SET) && this.consumes(first, pos) < 0) pc = b[pc]!;
            else {
              this.push(pc, pos);
              pc = first;
            }
            break;
          }
          case RUN: {
            const end = this.runEnd(pc, pos);
            work -= this.runRead;
            if (end < 0) pc = -1;
            else {
              pos = end;
              pc = b[pc]!;
            }
            break;
          }
          case JMP:
            pc = a[pc]!;
            break;
          case LOOK:
            pc = this.enterLook(pc, pos);
            pos = this.pos;
            break;
          case MATCH:
            if (this.lookDepth === 0) {
              this.depth = this.base;
              workLeft = work;
              return pos;
            }
            pc = this.bodyReached();
            pos = this.pos;
            break;
        }
      }
      pc = this.backtrack();
      if (pc < 0) {
        workLeft = work;
        return -1;
      }
      pos = this.pos;
    }
  }

  /**
   * Back to the latest SPLIT with a branch left: its other branch's step (this.pos its position), or -1 when the run
   * has no way left. A SPLIT whose branches both failed fails for good.
   */
  private backtrack(): number {
    const { b, branch } = this.program;
    for (;;) {
      if (this.depth === this.base) {
        if (this.lookDepth === 0) return -1;
        const pc = this.bodyFailed();
        if (pc >= 0) return pc;
        continue;
      }
      const top = this.depth - 1;
      if (!this.stackSecond[top]) {
        this.stackSecond[top] = 1;
        this.pos = this.stackPos[top]!;
        return b[this.stackStep[top]!]!;
      }
      this.memo.set(2 * branch[this.stackStep[top]!]!, this.stackPos[top]!);
      this.depth--;
    }
  }

  /** Out of work: keeps where the run stands for the next exec. */
  private pause(pc: number, pos: number): number {
    this.pc = pc;
    this.pos = pos;
    workLeft = 0;
    return PAUSED;
  }

  /**
   * The LOOK step pc at pos: the step the run goes on at (its body's start, or past a negative lookaround with no
   * alternative that fits), or -1.
   */
  private enterLook(pc: number, pos: number): number {
    const looks = this.program.looks;
    const frame = (this.frames[this.lookDepth] ??= { step: looks[0]!, pc: 0, pos: 0, alt: 0, base: 0, existence: false });
    frame.step = looks[this.program.a[pc]!]!;
    frame.pc = pc;
    frame.pos = pos;
    frame.alt = 0;
    frame.base = this.base;
    frame.existence = this.existence;
    const from = this.firstAlt(frame);
    this.pos = from >= 0 ? from : pos;
    if (from < 0) return frame.step.negate ? pc + 1 : -1;
    this.lookDepth++;
    this.base = this.depth;
    this.existence = true;
    return frame.step.alts[frame.alt]!.start;
  }

  /** A lookaround's body reached its end: so does every SPLIT state on its path; the step past the lookaround, or -1 if negative. */
  private bodyReached(): number {
    const branch = this.program.branch;
    for (let d = this.base; d < this.depth; d++) this.memo.set(2 * branch[this.stackStep[d]!]! + 1, this.stackPos[d]!);
    this.depth = this.base;
    return this.lookDecided(this.frames[--this.lookDepth]!, true);
  }

  /** The innermost body has no way left: the start of its next alternative, else the step past the lookaround if negative, or -1. */
  private bodyFailed(): number {
    const frame = this.frames[this.lookDepth - 1]!;
    frame.alt++;
    const from = this.firstAlt(frame);
    if (from < 0) {
      this.lookDepth--;
      return this.lookDecided(frame, false);
    }
    this.pos = from;
    return frame.step.alts[frame.alt]!.start;
  }

  /** Back from frame's lookaround (already popped), which found a match or not: the step past it if it holds, or -1. */
  private lookDecided(frame: LookFrame, found: boolean): number {
    this.base = frame.base;
    this.existence = frame.existence;
    this.pos = frame.pos;
    return found !== frame.step.negate ? frame.pc + 1 : -1;
  }

  /** Where the lookaround's alternatives from frame.alt on first has a start (a lookbehind's needs that many code points before), or -1. */
  private firstAlt(frame: LookFrame): number {
    const { alts, behind } = frame.step;
    for (; frame.alt < alts.length; frame.alt++) {
      const from = behind ? this.back(frame.pos, alts[frame.alt]!.length) : frame.pos;
      if (from >= 0) return from;
    }
    return -1;
  }

  /** The code point at pos if the CHAR or SET step pc takes it, else -1. */
  private consumes(pc: number, pos: number): number {
    const s = this.subject;
    if (pos >= s.length) return -1;
    const cp = codePointAt(s, pos);
    const { op, a, sets } = this.program;
    return (op[pc] === CHAR ? cp === a[pc] : sets[a[pc]!]!.has(cp)) ? cp : -1;
  }

  /** Where the RUN step pc's code points end when they all are there from pos, else -1 (this.runRead: characters read). */
  private runEnd(pc: number, pos: number): number {
    const k = this.program.a[pc]!;
    const run = this.program.runs[k]!;
    const span = this.spans[k]!;
    if (pos < span.lo || pos > span.hi) {
      span.lo = span.hi = pos;
      span.stopped = false;
    }
    const s = this.subject;
    const want = pos + run.count;
    const from = span.hi;
    while (span.hi < want && !span.stopped) {
      const cp = span.hi < s.length ? codePointAt(s, span.hi) : -1;
      if (cp < 0 || !this.inRun(run, cp)) span.stopped = true;
      else if (cp > 0xffff) {
        this.runRead = span.hi - from;
        return this.walkRun(run, pos, span);
      } else span.hi++;
    }
    this.runRead = span.hi - from + 1;
    return span.hi >= want ? want : -1;
  }

  /** runEnd one code point at a time, where the stretch holds one past the BMP (which is then forgotten). */
  private walkRun(run: RunStep, pos: number, span: RunSpan): number {
    span.lo = span.hi = -1;
    this.runRead += run.count;
    const s = this.subject;
    for (let n = 0; n < run.count; n++) {
      const cp = pos < s.length ? codePointAt(s, pos) : -1;
      if (cp < 0 || !this.inRun(run, cp)) return -1;
      pos += cp > 0xffff ? 2 : 1;
    }
    return pos;
  }

  private inRun(run: RunStep, cp: number): boolean {
    return run.char >= 0 ? cp === run.char : this.program.sets[run.set]!.has(cp);
  }

  /** back() on the subject: at once when every code point is one unit (a lookbehind of 400 characters at every position). */
  private back(pos: number, count: number): number {
    if (this.oneUnitEach) return pos >= count ? pos - count : -1;
    return back(this.subject, pos, count);
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
}
