/**
 * The fuzz suites' mutations of a text's lines (fast-check): delete, duplicate, swap, truncate, text inserted, or a
 * token replaced by a hostile one. One definition, so every reader's fuzz test mutates its files the same way.
 */
import fc from 'fast-check';

/**
 * The hostile values every reader's fuzz test tries, to which each adds its format's own: numbers past a double's
 * range, under it, not finite, a run of 400 digits, a Fortran exponent; a NUL, a right-to-left override, a byte-order
 * mark, look-alike digits and letters; a command link (shown as text, never a link).
 */
export const HOSTILE_VALUES: readonly string[] = [
  '1e308',
  '-1e308',
  '1e-320',
  'NaN',
  'Infinity',
  '-0',
  '0',
  '9'.repeat(400),
  '1.0D-3',
  '\u0000',
  '\u202e',
  '\ufeff',
  '𝟙',
  'Ｓｉ',
  '[x](command:workbench.action.terminal.sendSequence)',
];

/** The mutations, over `hostile` values; `insert` adds text inserted inside a line (markup formats). */
export function lineMutation(hostile: readonly string[], options: { insert?: boolean } = {}) {
  const value = fc.oneof(fc.constantFrom(...hostile), fc.string({ maxLength: 12 }), fc.double().map(String));
  return fc.oneof(
    fc.record({ kind: fc.constant('delete' as const), at: fc.nat() }),
    fc.record({ kind: fc.constant('duplicate' as const), at: fc.nat() }),
    fc.record({ kind: fc.constant('swap' as const), at: fc.nat(), to: fc.nat() }),
    fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
    ...(options.insert
      ? [
          fc.record({
            kind: fc.constant('insert' as const),
            at: fc.nat(),
            value: fc.oneof(fc.constantFrom(...hostile), fc.string({ maxLength: 12 })),
          }),
        ]
      : []),
    fc.record({ kind: fc.constant('token' as const), at: fc.nat(), token: fc.nat(), value }),
  );
}

/** Random text: up to 40 lines, each random binary text or up to 8 numbers and hostile values separated by spaces. */
export function randomLines(hostile: readonly string[]): fc.Arbitrary<string> {
  const numberLine = fc
    .array(fc.oneof(fc.double().map(String), fc.integer().map(String), fc.constantFrom(...hostile)), { maxLength: 8 })
    .map((t) => t.join(' '));
  return fc.array(fc.oneof(numberLine, fc.string({ unit: 'binary', maxLength: 40 })), { maxLength: 40 }).map((l) => l.join('\n'));
}

export type LineMutation = ReturnType<typeof lineMutation> extends fc.Arbitrary<infer M> ? M : never;

/** `text` with the mutations applied in order; a token is what `separators` (a capturing split) leaves between them. */
export function mutateLines(text: string, mutations: readonly LineMutation[], separators: RegExp): string {
  let lines = text.split('\n');
  for (const m of mutations) {
    const i = m.at % Math.max(1, lines.length);
    if (m.kind === 'delete') lines.splice(i, 1);
    else if (m.kind === 'duplicate') lines.splice(i, 0, lines[i] ?? '');
    else if (m.kind === 'swap') [lines[i], lines[m.to % lines.length]] = [lines[m.to % lines.length]!, lines[i]!];
    else if (m.kind === 'truncate')
      lines = lines
        .join('\n')
        .slice(0, m.at % (text.length + 1))
        .split('\n');
    else if (m.kind === 'insert') {
      const line = lines[i] ?? '';
      const at = m.at % (line.length + 1);
      lines[i] = line.slice(0, at) + m.value + line.slice(at);
    } else {
      const tokens = (lines[i] ?? '').split(separators);
      tokens[m.token % Math.max(1, tokens.length)] = m.value;
      lines[i] = tokens.join('');
    }
  }
  return lines.join('\n');
}
