/**
 * tiktoken's pre-tokenizer patterns, made to match as Rust's regex does. JavaScript's \s differs from
 * Unicode White_Space (it adds U+FEFF and lacks U+0085), which would split text differently from
 * the reference, so \s and \S are spelled out.
 */
export const WHITE_SPACE = '\\t-\\r \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';

export function compilePattern(source: string): RegExp {
  let out = '';
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === '\\') {
      const escaped = source[i + 1]!;
      i++;
      if (escaped === 's') out += inClass ? WHITE_SPACE : `[${WHITE_SPACE}]`;
      else if (escaped === 'S')
        out += `[^${WHITE_SPACE}]`; // never inside a class in tiktoken's patterns
      else out += c + escaped;
      continue;
    }
    if (c === '[') inClass = true;
    else if (c === ']') inClass = false;
    out += c;
  }
  return new RegExp(out, 'gu');
}
