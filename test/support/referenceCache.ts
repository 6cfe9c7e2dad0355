/**
 * A reference library's answers kept on disk between runs, for differential tests whose reference is slow on long
 * real text (tokenizers.js takes seconds per model on a megabyte). The key is everything the answer depends on: the
 * reference package and its version, a hash of the model file and a hash of the input. A fresh clone has no cache
 * and computes every answer; a second run reads them. The folder (.cache/, git-ignored) can be deleted at any time;
 * TOKEN_LENS_NO_REFERENCE_CACHE=1 computes everything without reading or writing it.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

/** Repository root (compiled file: out/test/support/). */
const CACHE_DIR = path.resolve(__dirname, '..', '..', '..', '.cache', 'reference-ids');

const sha256 = (data: string | Buffer): string => createHash('sha256').update(data).digest('hex');

/** The installed version of a package, part of every key (a new reference version computes its answers again). */
export function packageVersion(name: string): string {
  // Found from the package's entry point upwards: not every package exports its package.json.
  for (let dir = path.dirname(require.resolve(name)); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const file = path.join(dir, 'package.json');
    if (!fs.existsSync(file)) continue;
    const json = JSON.parse(fs.readFileSync(file, 'utf8')) as { name?: string; version?: string };
    if (json.name === name && json.version) return json.version;
  }
  throw new Error(`no package.json with the version of ${name}`);
}

/** What a cached answer depends on besides its input: the reference (name@version) and the model file's hash. */
export interface ReferenceKey {
  reference: string;
  modelHash: string;
}

export const fileHash = (file: string): string => sha256(fs.readFileSync(file));

/** The reference's ids of each of `texts`, kept as one cache entry for the list: from the cache, else computed and stored. */
export function cachedBatch(key: ReferenceKey, texts: readonly string[], compute: (text: string) => ArrayLike<number>): number[][] {
  const computeAll = () => texts.map((text) => Array.from(compute(text)));
  if (process.env.TOKEN_LENS_NO_REFERENCE_CACHE === '1') return computeAll();
  const inputs = texts.map((text) => sha256(text)).join('\n');
  const file = path.join(CACHE_DIR, `${sha256(`${key.reference}\n${key.modelHash}\n${inputs}`)}.json`);
  try {
    const cached = JSON.parse(fs.readFileSync(file, 'utf8')) as number[][];
    if (Array.isArray(cached) && cached.length === texts.length) return cached;
  } catch {
    // Not computed yet (or a torn write): compute it.
  }
  const ids = computeAll();
  fs.mkdirSync(CACHE_DIR, { recursive: true });
  const temporary = `${file}.${process.pid}`;
  fs.writeFileSync(temporary, JSON.stringify(ids));
  fs.renameSync(temporary, file);
  return ids;
}

/** The reference's ids of `text`, as cachedBatch keeps them. */
export const cachedIds = (key: ReferenceKey, text: string, compute: (text: string) => ArrayLike<number>): number[] =>
  cachedBatch(key, [text], compute)[0]!;

/** An encoder that answers the texts of `batch` from the cache and computes any other (a failure's shrunk inputs). */
export function cachedEncoder(
  key: ReferenceKey,
  batch: readonly string[],
  compute: (text: string) => ArrayLike<number>,
): (text: string) => ArrayLike<number> {
  const ids = cachedBatch(key, batch, compute);
  const known = new Map(batch.map((text, i) => [text, ids[i]!]));
  return (text) => known.get(text) ?? compute(text);
}
