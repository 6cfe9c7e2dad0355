/**
 * A RegexNode compiled to the linear matcher's program (matcher.ts): a Thompson-style list of steps, where only
 * SPLIT branches, so memoizing SPLIT states is enough for linear time (Davis, Servant & Lee, "Using Selective
 * Memoization to Defeat Regular Expression Denial of Service (ReDoS)", IEEE S&P 2021: memoize the vertices
 * that paths can reach more than one way). {n,m} is written out, so the program's size is capped, and so is
 * the number of SPLITs, which sets the memo's width (see matcher.ts). The n copies a counted repeat of one
 * character or set must match are one RUN step, which the matcher answers from the run of such characters it has
 * already read (a{1000}b tried at every position of a long run of a: once per position, not 1000 steps each);
 * RUN counts as its n steps towards MAX_STEPS, so the same patterns are refused.
 */
import { alternativesOf, fixedLength, nullable, type CharSet, type RegexNode } from './ast';
import { SetTest } from './charSet';
import { PatternError } from './parse';

export const CHAR = 0;
export const SET = 1;
export const SPLIT = 2;
export const JMP = 3;
export const LOOK = 4;
export const MATCH = 5;
export const RUN = 6;

/** The most steps a program may have ({n,m} written out). */
export const MAX_STEPS = 10_000;
/** The most SPLIT steps: each costs two bits of memo per position of the text a scan looks at. */
export const MAX_BRANCHES = 256;
/** Sets with Unicode properties that keep a 64 KiB table of answers; others look each character up. */
const MAX_CACHED_SETS = 32;

export interface LookStep {
  readonly behind: boolean;
  readonly negate: boolean;
  /** Where each alternative's steps start, and (behind) how many code points it matches. */
  readonly alts: { start: number; length: number }[];
}

/** A RUN step: `count` code points in a row, each the code point `char` (when not -1) or in sets[set]. */
export interface RunStep {
  readonly char: number;
  readonly set: number;
  readonly count: number;
}

export interface Program {
  /**
   * Step k: op[k] with arguments a[k] (a code point, set, look, or the preferred target) and b[k] (SPLIT's other
   * target; for CHAR and SET, the step after a match, which an empty-checked loop moves, see emptyCheckedLoop).
   */
  readonly op: Uint8Array;
  readonly a: Int32Array;
  readonly b: Int32Array;
  /** For a SPLIT step, its index among the SPLITs (its memo slot). */
  readonly branch: Int32Array;
  readonly branches: number;
  readonly sets: readonly SetTest[];
  readonly looks: readonly LookStep[];
  readonly runs: readonly RunStep[];
  /** The most code points a lookbehind looks back. */
  readonly behindReach: number;
}

export function compileRegex(node: RegexNode, pattern: string): Program {
  const c = new Compiler(pattern);
  c.node(node);
  c.emit(MATCH);
  // Lookaround bodies follow the main steps, each ending in its own MATCH; bodies may hold lookarounds in turn.
  for (let k = 0; k < c.pendingLooks.length; k++) {
    const { body, step } = c.pendingLooks[k]!;
    for (const alt of step.behind ? alternativesOf(body) : [body]) {
      step.alts.push({ start: c.op.length, length: step.behind ? fixedLength(alt)! : 0 });
      c.node(alt);
      c.emit(MATCH);
    }
  }
  return c.program();
}

class Compiler {
  readonly op: number[] = [];
  private readonly a: number[] = [];
  private readonly b: number[] = [];
  private readonly sets: SetTest[] = [];
  private readonly setIndex = new Map<string, number>();
  private cachedSets = 0;
  readonly pendingLooks: { body: RegexNode; step: LookStep }[] = [];
  private readonly looks: LookStep[] = [];
  private readonly runs: RunStep[] = [];
  /** The steps so far with every RUN written out as its copies. */
  private size = 0;

  constructor(private readonly pattern: string) {}

  emit(op: number, a = 0, b = 0, copies = 1): number {
    if (this.size + copies > MAX_STEPS)
      throw new PatternError(
        this.pattern,
        `it needs more than ${MAX_STEPS} steps with its {n,m} repeats written out: write fewer or smaller repeats`,
      );
    this.size += copies;
    this.op.push(op);
    this.a.push(a);
    this.b.push(b);
    return this.op.length - 1;
  }

  node(node: RegexNode): void {
    switch (node.type) {
      case 'char':
        this.emit(CHAR, node.cp, this.op.length + 1);
        return;
      case 'set':
        this.emit(SET, this.set(node.set), this.op.length + 1);
        return;
      case 'seq':
        for (const item of node.items) this.node(item);
        return;
      case 'alt':
        return this.alternation(node.alts);
      case 'repeat':
        return this.repeat(node.body, node.min, node.max, node.greedy);
      case 'look': {
        const step: LookStep = { behind: node.behind, negate: node.negate, alts: [] };
        this.looks.push(step);
        this.pendingLooks.push({ body: node.body, step });
        this.emit(LOOK, this.looks.length - 1);
        return;
      }
    }
  }

  private alternation(alts: readonly RegexNode[]): void {
    const jumps: number[] = [];
    alts.forEach((alt, k) => {
      const split = k < alts.length - 1 ? this.emit(SPLIT) : -1;
      if (split >= 0) this.a[split] = split + 1;
      this.node(alt);
      if (split < 0) return;
      jumps.push(this.emit(JMP));
      this.b[split] = this.op.length;
    });
    for (const jump of jumps) this.a[jump] = this.op.length;
  }

  /** min copies of the body, then a loop (max infinite) or max - min optional copies that all exit to the end. */
  private repeat(body: RegexNode, min: number, max: number, greedy: boolean): void {
    if (min >= 2 && (body.type === 'char' || body.type === 'set')) {
      const run = { char: body.type === 'char' ? body.cp : -1, set: body.type === 'set' ? this.set(body.set) : -1, count: min };
      this.emit(RUN, this.runs.push(run) - 1, this.op.length + 1, min);
    } else for (let k = 0; k < min; k++) this.node(body);
    if (max === Infinity && nullable(body)) return this.emptyCheckedLoop(body, greedy);
    const splits: number[] = [];
    if (max === Infinity) {
      const loop = this.emit(SPLIT);
      splits.push(loop);
      this.node(body);
      this.emit(JMP, loop);
    } else
      for (let k = min; k < max; k++) {
        splits.push(this.emit(SPLIT));
        this.node(body);
      }
    const end = this.op.length;
    for (const split of splits) {
      this.a[split] = greedy ? split + 1 : end;
      this.b[split] = greedy ? end : split + 1;
    }
  }

  /**
   * A loop whose body can match empty, as Oniguruma runs it: an iteration that consumed nothing leaves the loop
   * (its empty check) instead of going round again. The body is written twice: copy A until the iteration has
   * consumed a character, copy B after, so the check needs no state beyond the step (and memoization stays exact).
   */
  private emptyCheckedLoop(body: RegexNode, greedy: boolean): void {
    const loop = this.emit(SPLIT);
    const start = this.op.length;
    this.node(body);
    const leave = this.emit(JMP);
    const offset = this.op.length - start;
    this.node(body);
    this.emit(JMP, loop);
    const end = this.op.length;
    this.a[leave] = end;
    for (let k = start; k < start + offset; k++) {
      const consumes = this.op[k] === CHAR || this.op[k] === SET || this.op[k] === RUN;
      if (consumes && this.b[k]! >= start && this.b[k]! < start + offset) this.b[k]! += offset;
    }
    this.a[loop] = greedy ? start : end;
    this.b[loop] = greedy ? end : start;
  }

  private set(set: CharSet): number {
    const key = JSON.stringify(set);
    let index = this.setIndex.get(key);
    if (index === undefined) {
      const cache = set.items.some((item) => 'prop' in item) && this.cachedSets++ < MAX_CACHED_SETS;
      index = this.sets.push(new SetTest(set, cache)) - 1;
      this.setIndex.set(key, index);
    }
    return index;
  }

  program(): Program {
    const op = Uint8Array.from(this.op);
    const branch = new Int32Array(op.length).fill(-1);
    let branches = 0;
    op.forEach((o, k) => {
      if (o === SPLIT) branch[k] = branches++;
    });
    if (branches > MAX_BRANCHES)
      throw new PatternError(
        this.pattern,
        `it has ${branches} branch points, more than the ${MAX_BRANCHES} the linear matcher allows: write fewer alternatives or repeats`,
      );
    const behindReach = Math.max(0, ...this.looks.flatMap((look) => look.alts.map((alt) => alt.length)));
    return {
      op,
      a: Int32Array.from(this.a),
      b: Int32Array.from(this.b),
      branch,
      branches,
      sets: this.sets,
      looks: this.looks,
      runs: this.runs,
      behindReach,
    };
  }
}
