/** Loading a listed tokenizer by name, through its family's row (families.ts); one tokenizer per name and mode. */
import { familyOf } from './families';
import { onModelsChanged, resolveTokenizer } from './registry';
import type { EngineOptions, Tokenizer } from './types';

const tokenizers = new Map<string, Tokenizer>();

// A model registered again (another file) or removed: its tokenizers were built from the old one.
onModelsChanged((name) => {
  for (const key of [...tokenizers.keys()]) if (key.startsWith(`${name}\0`)) tokenizers.delete(key);
});

/** Returns the tokenizer for a listed name (aliases included), loading only what it needs. Throws UnknownTokenizerError. */
export function loadTokenizerSync(name: string, options: EngineOptions = {}): Tokenizer {
  const info = resolveTokenizer(name);
  const key = `${info.name}\0${options.specialTokens ?? 'text'}`;
  let tokenizer = tokenizers.get(key);
  if (!tokenizer) {
    tokenizer = familyOf(info).create(info, options, loadTokenizerSync);
    tokenizers.set(key, tokenizer);
  }
  return tokenizer;
}

/**
 * As loadTokenizerSync, but lets the event loop run first, so a first load never stacks on other work.
 * A registered model's tokenizer.json is read and built here, in slices (ModelLoadError when it cannot be).
 */
export async function loadTokenizer(name: string, options: EngineOptions = {}): Promise<Tokenizer> {
  const info = resolveTokenizer(name);
  const family = familyOf(info);
  if (!family.isLoaded(info)) await family.load(info);
  return loadTokenizerSync(name, options);
}

export function isLoaded(name: string): boolean {
  const info = resolveTokenizer(name);
  return familyOf(info).isLoaded(info);
}
