/**
 * Membership in a CharSet for the linear matcher. Ranges are compared directly; Unicode properties ask a
 * one-character RegExp (the runtime's own Unicode data, as the `u` RegExp and scanner.ts read it), and the
 * answers for the Basic Multilingual Plane are kept, so each such character is looked up once.
 */
import type { CharSet } from './ast';

const UNKNOWN = 0;
const IN = 1;
const OUT = 2;

export class SetTest {
  private readonly ranges: Int32Array;
  private readonly props: RegExp | undefined;
  /** Answers for code points below 0x10000 (UNKNOWN, IN or OUT), when the set has properties and may keep them. */
  private readonly known: Uint8Array | undefined;

  constructor(
    private readonly set: CharSet,
    mayCache: boolean,
  ) {
    const ranges: number[] = [];
    let props = '';
    for (const item of set.items) {
      if ('prop' in item) props += `\\${item.negate ? 'P' : 'p'}{${item.prop}}`;
      else ranges.push(item.lo, item.hi);
    }
    this.ranges = Int32Array.from(ranges);
    this.props = props ? new RegExp(`^[${props}]$`, 'u') : undefined;
    this.known = this.props && mayCache ? new Uint8Array(0x10000) : undefined;
  }

  has(cp: number): boolean {
    const known = this.known;
    if (known && cp < 0x10000) {
      let k = known[cp]!;
      if (k === UNKNOWN) k = known[cp] = this.lookUp(cp) ? IN : OUT;
      return k === IN;
    }
    return this.lookUp(cp);
  }

  private lookUp(cp: number): boolean {
    const ranges = this.ranges;
    let found = false;
    for (let k = 0; k < ranges.length && !found; k += 2) found = cp >= ranges[k]! && cp <= ranges[k + 1]!;
    if (!found && this.props) found = this.props.test(String.fromCodePoint(cp));
    return found !== this.set.negate;
  }
}
