/** Oniguruma patterns from files: parsed once (parse.ts), compiled (compile.ts) and run in linear time (matcher.ts). */
import { looksBehind } from './ast';
import { compileRegex } from './compile';
import { LinearMatcher, UNFINISHED, type Matcher, type MatchFound } from './matcher';
import { parseOnigRegex } from './parse';

export { UNFINISHED, withWorkBudget, type Matcher, type MatchFound } from './matcher';
export { PatternError } from './parse';

/** The linear matcher of an Oniguruma pattern, and whether it looks behind; a PatternError when it cannot be exact. */
export function linearMatcher(pattern: string): { matcher: Matcher; lookbehind: boolean } {
  const node = parseOnigRegex(pattern);
  return { matcher: new LinearMatcher(compileRegex(node, pattern)), lookbehind: looksBehind(node) };
}

/**
 * Thrown through a walk of the pieces (or a normalizer) when a pattern ran out of its work budget
 * (withWorkBudget): whoever set the budget catches it, yields, and walks again from the last piece's end, where
 * the matcher goes on with its work (see matcher.ts).
 */
export class WorkPaused extends Error {
  constructor() {
    super('A pattern ran out of its work budget.');
    this.name = 'WorkPaused';
  }
}

const PAUSE = new WorkPaused();

/** regex.exec(subject), or a WorkPaused thrown when it is unfinished. */
export function execOrPause(regex: Matcher, subject: string): MatchFound | null {
  const m = regex.exec(subject);
  if (m === UNFINISHED) throw PAUSE;
  return m;
}
