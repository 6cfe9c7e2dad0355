/** Oniguruma patterns from files: parsed once (parse.ts), compiled (compile.ts) and run in linear time (matcher.ts). */
import { looksBehind } from './ast';
import { compileRegex } from './compile';
import { LinearMatcher, type Matcher } from './matcher';
import { parseOnigRegex } from './parse';

export type { Matcher } from './matcher';
export { PatternError } from './parse';

/** The linear matcher of an Oniguruma pattern, and whether it looks behind; a PatternError when it cannot be exact. */
export function linearMatcher(pattern: string): { matcher: Matcher; lookbehind: boolean } {
  const node = parseOnigRegex(pattern);
  return { matcher: new LinearMatcher(compileRegex(node, pattern)), lookbehind: looksBehind(node) };
}
