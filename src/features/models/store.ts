/**
 * Model tokenizers on disk: downloaded ones cached under the extension's global storage
 * (models/<owner>--<name>/tokenizer.json + model.json, and the chat files beside it when the repository has
 * them), and tokenizer.json files of the user's own, whose chat files are read from beside them too.
 * No `vscode` here (unit-tested with node --test).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';
import { readModelChatConfig, type ModelChatConfig } from '../../core/chat/index';
import { MAX_TOKENIZER_JSON_CHARS, prepareModelJson, type PreparedHuggingFace } from '../../core/tokenizers/index';
import { substitute, type Translate } from '../../core/util/locale';
import { cancelled, downloadTokenizerJson, HubError, type DownloadOptions } from './hub';

/** The largest tokenizer.json read or downloaded (Gemma 3's, the largest published, is 33 MB). */
export const MAX_TOKENIZER_BYTES = MAX_TOKENIZER_JSON_CHARS;

/** What model.json keeps about a downloaded tokenizer.json. */
export interface CachedModel {
  /** The name it is listed under: the repository id. */
  name: string;
  repo: string;
  endpoint: string;
  family?: string;
  contextWindow?: number;
  sha256: string;
  bytes: number;
  commit?: string;
  downloadedAt: string;
  /** The chat files (CHAT_FILES) the repository had, saved beside tokenizer.json. */
  chatFiles?: string[];
}

/** What says how a model reads a chat, beside its tokenizer.json; both optional (a model without them counts text alone). */
export const CHAT_FILES = ['tokenizer_config.json', 'chat_template.jinja'] as const;
/** Real ones are at most a few megabytes (a tokenizer_config.json listing every added token). */
export const MAX_CHAT_FILE_BYTES = 8 * 1024 * 1024;

const MODELS_DIR = 'models';
const slug = (repo: string): string => repo.replace(/\//g, '--');

export function cachedModelFile(cacheDir: string, repo: string): string {
  return path.join(cacheDir, MODELS_DIR, slug(repo), 'tokenizer.json');
}

/** Writes through a temporary name and renames, so a file is either whole or absent. */
async function writeWhole(file: string, data: Uint8Array | string): Promise<void> {
  const temp = `${file}.${randomBytes(6).toString('hex')}.part`;
  try {
    await fs.promises.writeFile(temp, data);
    await fs.promises.rename(temp, file);
  } catch (error) {
    await fs.promises.rm(temp, { force: true });
    throw error;
  }
}

/**
 * Downloads a repository's tokenizer.json, checks it is one the engine can use (by building it: the built
 * model is returned too, so the first count need not build it again), and only then saves it with its
 * model.json. Any failure leaves the cache as it was.
 */
export async function installFromHub(
  cacheDir: string,
  download: DownloadOptions,
  about: { family?: string; contextWindow?: number } = {},
): Promise<CachedModel & { prepared: PreparedHuggingFace }> {
  const got = await downloadTokenizerJson(download);
  const text = Buffer.from(got.bytes.buffer, got.bytes.byteOffset, got.bytes.byteLength).toString('utf8');
  let prepared: PreparedHuggingFace;
  try {
    prepared = await prepareModelJson(text);
  } catch (error) {
    const t = download.t ?? substitute;
    throw new HubError('invalid', t('The tokenizer.json of {0} cannot be used: {1}', download.repo, (error as Error).message), error);
  }
  const chatFiles = await downloadChatFiles(download);
  if (download.signal?.aborted) throw cancelled(download.t);
  const model: CachedModel = {
    name: download.repo,
    repo: download.repo,
    endpoint: download.endpoint,
    ...(about.family ? { family: about.family } : {}),
    ...(about.contextWindow ? { contextWindow: about.contextWindow } : {}),
    sha256: got.sha256,
    bytes: got.bytes.length,
    ...(got.commit ? { commit: got.commit } : {}),
    downloadedAt: new Date().toISOString(),
    ...(chatFiles.size > 0 ? { chatFiles: [...chatFiles.keys()] } : {}),
  };
  const file = cachedModelFile(cacheDir, download.repo);
  await fs.promises.mkdir(path.dirname(file), { recursive: true });
  for (const [name, bytes] of chatFiles) await writeWhole(path.join(path.dirname(file), name), bytes);
  await writeWhole(file, got.bytes);
  await writeWhole(path.join(path.dirname(file), 'model.json'), `${JSON.stringify(model, null, 2)}\n`);
  return { ...model, prepared };
}

/** The downloaded models, read at activation (small files, synchronously); a damaged entry is reported, not fatal. */
export function readCachedModels(cacheDir: string, onProblem: (message: string) => void = () => undefined): CachedModel[] {
  const root = path.join(cacheDir, MODELS_DIR);
  let dirs: string[];
  try {
    dirs = fs.readdirSync(root).sort();
  } catch {
    return [];
  }
  const out: CachedModel[] = [];
  for (const dir of dirs) {
    const file = path.join(root, dir, 'model.json');
    try {
      const model = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<CachedModel>;
      if (typeof model.repo !== 'string' || typeof model.name !== 'string' || typeof model.sha256 !== 'string')
        throw new Error('fields missing');
      if (!fs.existsSync(path.join(root, dir, 'tokenizer.json'))) throw new Error('its tokenizer.json is missing');
      out.push(model as CachedModel);
    } catch (error) {
      onProblem(`Token Lens skipped the cached model in ${path.join(root, dir)}: ${(error as Error).message}`);
    }
  }
  return out;
}

/** What the user is told when a downloaded model leaves the lists because its cached tokenizer.json fails to load. */
export function brokenModelMessage(
  model: Pick<CachedModel, 'name' | 'repo'>,
  reason: string,
  t: Translate = (message, ...args) => message.replace(/\{(\d+)\}/g, (_, k: string) => String(args[+k] ?? '')),
): string {
  return t(
    'Token Lens removed {0} ({1}) from the tokenizer list: its saved tokenizer.json could not be loaded ({2}). Add it again with Add Model Tokenizer… to download it afresh.',
    model.name,
    model.repo,
    reason,
  );
}

export async function removeCachedModel(cacheDir: string, repo: string): Promise<void> {
  await fs.promises.rm(path.dirname(cachedModelFile(cacheDir, repo)), { recursive: true, force: true });
}

/**
 * Reads a tokenizer.json as text, refusing one over the cap before reading it; every problem names the file.
 */
export async function readTokenizerFile(file: string, maxBytes = MAX_TOKENIZER_BYTES): Promise<string> {
  let size: number;
  try {
    const stat = await fs.promises.stat(file);
    if (!stat.isFile()) throw new Error('not a file');
    size = stat.size;
  } catch (error) {
    throw new Error(`cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).`, { cause: error });
  }
  if (size > maxBytes) {
    throw new Error(`${file} is ${(size / 1048576).toFixed(1)} MB, more than the ${(maxBytes / 1048576).toFixed(0)} MB allowed.`);
  }
  return fs.promises.readFile(file, 'utf8');
}

/**
 * The name a tokenizer.json of the user's is listed under: its folder's name for a file called
 * tokenizer.json (…/Llama-3.1-8B/tokenizer.json is "Llama-3.1-8B"), else the file's name without
 * .json; the whole path when that name is taken.
 */
export function nameForFile(file: string, taken: (name: string) => boolean): string {
  const base = path.basename(file);
  const short = base.toLowerCase() === 'tokenizer.json' ? path.basename(path.dirname(file)) : base.replace(/\.json$/i, '');
  return short && !taken(short) ? short : file;
}

/** The chat files a repository has, downloaded with the same checks as its tokenizer.json; one it lacks (404) is skipped. */
async function downloadChatFiles(download: DownloadOptions): Promise<Map<string, Uint8Array>> {
  const files = new Map<string, Uint8Array>();
  for (const file of CHAT_FILES) {
    try {
      const { onProgress: _progress, ...rest } = download;
      files.set(file, (await downloadTokenizerJson({ ...rest, file, maxBytes: MAX_CHAT_FILE_BYTES })).bytes);
    } catch (error) {
      if (!(error instanceof HubError && error.kind === 'notFound')) throw error;
    }
  }
  return files;
}

/**
 * The chat template and special tokens from the files beside a tokenizer.json (a cached model's or the user's
 * own), read with a size cap; without them, a config with no template (the messages' text alone).
 */
export async function readChatConfig(tokenizerFile: string, maxBytes = MAX_CHAT_FILE_BYTES): Promise<ModelChatConfig> {
  const dir = path.dirname(tokenizerFile);
  const [config, jinja] = await Promise.all(CHAT_FILES.map((name) => readOptional(path.join(dir, name), maxBytes)));
  return readModelChatConfig(config, jinja, `${dir}${path.sep}`);
}

async function readOptional(file: string, maxBytes: number): Promise<string | undefined> {
  try {
    return await readTokenizerFile(file, maxBytes);
  } catch (error) {
    if ((error as { cause?: NodeJS.ErrnoException }).cause?.code === 'ENOENT') return undefined;
    throw error;
  }
}
