/**
 * A TextMate grammar of media/languages, tokenized by vscode-textmate with the Oniguruma wasm as VS
 * Code does: line by line, each line starting from the rule stack the previous one left.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { OnigScanner, OnigString, loadWASM } from 'vscode-oniguruma';
import { INITIAL, Registry, parseRawGrammar, type IGrammar, type StateStack } from 'vscode-textmate';

export const root = resolve(__dirname, '..', '..', '..');
const wasm = loadWASM(readFileSync(join(root, 'node_modules', 'vscode-oniguruma', 'release', 'onig.wasm')));

/** Splits at CRLF, LF or CR, as VS Code does. */
export const lines = (text: string): string[] => text.split(/\r\n|\r|\n/);

/** The grammar in media/languages/<file>. */
export async function loadGrammar(file: string, scopeName: string): Promise<IGrammar> {
  const grammarFile = join(root, 'media', 'languages', file);
  await wasm;
  const registry = new Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (sources) => new OnigScanner(sources),
      createOnigString: (text) => new OnigString(text),
    }),
    loadGrammar: async () => parseRawGrammar(readFileSync(grammarFile, 'utf8'), grammarFile),
  });
  const loaded = await registry.loadGrammar(scopeName);
  assert.ok(loaded);
  return loaded;
}

/** Each line's non-blank tokens as [text, scopes below the grammar's own]. */
export function tokenizer(grammar: Promise<IGrammar>): (docLines: string[]) => Promise<[string, string][][]> {
  return async (docLines) => {
    const g = await grammar;
    let state: StateStack = INITIAL;
    return docLines.map((line) => {
      const { tokens, ruleStack } = g.tokenizeLine(line, state);
      state = ruleStack;
      return tokens
        .map(({ startIndex, endIndex, scopes }): [string, string] => [line.slice(startIndex, endIndex).trim(), scopes.slice(1).join(' ')])
        .filter(([text]) => text !== '');
    });
  };
}
