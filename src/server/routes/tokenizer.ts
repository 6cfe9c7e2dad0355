/** tokenizer/*: tokenize with the engine the extension counts with, and the list of tokenizers. */
import { countChars, loadTokenizerSync, TOKENIZERS, UnknownTokenizerError } from '../../core/tokenizers/index';
import { MAX_TEXT_CHARS } from '../../core/service/limits';
import { HttpError, str, type Handler } from '../http/body';

export const tokenize: Handler = (body) => {
  const text = str(body, 'text', true);
  const name = str(body, 'tokenizer', false) ?? 'cl100k_base';
  const chars = countChars(text);
  if (chars > MAX_TEXT_CHARS) throw new HttpError(400, `Text is too long: ${chars} characters; the limit is ${MAX_TEXT_CHARS}.`);
  try {
    return loadTokenizerSync(name).tokenize(text);
  } catch (error) {
    if (error instanceof UnknownTokenizerError) throw new HttpError(400, error.message);
    throw error;
  }
};

export const tokenizerSearch: Handler = (body) => {
  const query = (str(body, 'query', false) ?? '').toLowerCase();
  const results = TOKENIZERS.filter(
    (t) => !query || t.name.toLowerCase().includes(query) || t.kind.includes(query) || t.description.toLowerCase().includes(query),
  ).map((t) => ({ ...t }));
  return { count: results.length, results };
};
