/**
 * The fuzz suites' mutations of a text's lines (fast-check): delete, duplicate, swap, truncate, text inserted, or a
 * token replaced by a hostile one. One definition, so every reader's fuzz test mutates its files the same way.
 */
import fc from 'fast-check';

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
