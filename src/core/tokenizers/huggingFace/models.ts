/** The Hugging Face family's models: a registered model's tokenizer.json read and built once per registration. */
import { modelEntry, type ModelEntry, type TokenizerInfo } from '../registry';
import { builtTables } from '../tiktoken/ranks';
import type { SpecialTokenMode, Tokenizer } from '../types';
import { prepareHuggingFaceSliced, type PreparedHuggingFace } from './huggingFace';

/** A registered model's tokenizer.json could not be read or used; the message names the model and where its file is. */
export class ModelLoadError extends Error {
  constructor(
    readonly model: string,
    readonly source: string,
    readonly reason: string,
  ) {
    super(`Could not load the tokenizer "${model}" from ${source}: ${reason}`);
    this.name = 'ModelLoadError';
  }
}

/** One read and build per registration, shared by every caller; a failure stays until the model is registered again. */
const preparing = new WeakMap<ModelEntry, Promise<PreparedHuggingFace>>();
const prepared = new WeakMap<ModelEntry, PreparedHuggingFace>();

/**
 * Hands a registered model the tokenizer.json already built from the same file (Add Model Tokenizer builds
 * it to check it before saving), so the first count does not read and build it a second time.
 */
export function provideModel(name: string, model: PreparedHuggingFace): void {
  const entry = modelEntry(name);
  if (!entry || prepared.has(entry)) return;
  prepared.set(entry, model);
  preparing.set(entry, Promise.resolve(model));
}

/** prepareHuggingFaceSliced, sharing the table of a built-in encoding loaded so far that the vocabulary begins with. */
export function prepareModelJson(text: string): Promise<PreparedHuggingFace> {
  return prepareHuggingFaceSliced(text, { bases: builtTables() });
}

function prepareModel(entry: ModelEntry): Promise<PreparedHuggingFace> {
  let pending = preparing.get(entry);
  if (!pending) {
    const { name, source = name } = entry.info;
    pending = entry
      .load()
      .then(prepareModelJson)
      .then(
        (model) => {
          prepared.set(entry, model);
          return model;
        },
        (error: unknown) => {
          const failure = new ModelLoadError(name, source, error instanceof Error ? error.message : String(error));
          try {
            entry.onLoadFailed?.(failure.reason);
          } catch {
            // the listener's own failure must not hide this one
          }
          throw failure;
        },
      );
    preparing.set(entry, pending);
  }
  return pending;
}

/** Whether a registered model's tokenizer.json is read and built. */
export function isModelLoaded(info: TokenizerInfo): boolean {
  const entry = modelEntry(info.name);
  return entry !== undefined && prepared.has(entry);
}

/** Reads and builds a registered model's tokenizer.json, in slices (ModelLoadError when it cannot be). */
export async function loadModel(info: TokenizerInfo): Promise<void> {
  const entry = modelEntry(info.name);
  if (entry && !prepared.has(entry)) await prepareModel(entry);
}

/** A registered model's tokenizer, once its tokenizer.json is read (loadModel reads it). */
export function modelTokenizer(info: TokenizerInfo, mode: SpecialTokenMode): Tokenizer {
  const entry = modelEntry(info.name);
  const model = entry && prepared.get(entry);
  if (!model) throw new Error(`The tokenizer "${info.name}" is read from ${info.source ?? 'its file'}: load it with loadTokenizer first.`);
  const { name, description, ...rest } = entry.info;
  return model.tokenizer({ name, description, specialTokens: mode, info: rest });
}
