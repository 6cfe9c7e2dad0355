/**
 * Models offered by Add Model Tokenizer…: their Hugging Face repositories (each with a tokenizer.json at
 * the top of main), families and context windows as their model cards give them. Pure data.
 */
export interface CatalogModel {
  /** As the pick shows it. */
  label: string;
  repo: string;
  family: string;
  /** Tokens the model takes in, as its model card gives it (natively, without rope scaling). */
  contextWindow: number;
  /** The repository asks users to accept its license first: downloading needs an access token. */
  gated?: boolean;
}

export const CATALOG: readonly CatalogModel[] = [
  { label: 'Llama 3.1 8B Instruct', repo: 'meta-llama/Llama-3.1-8B-Instruct', family: 'Llama 3', contextWindow: 131_072, gated: true },
  { label: 'Llama 3.2 3B Instruct', repo: 'meta-llama/Llama-3.2-3B-Instruct', family: 'Llama 3', contextWindow: 131_072, gated: true },
  { label: 'Llama 3.3 70B Instruct', repo: 'meta-llama/Llama-3.3-70B-Instruct', family: 'Llama 3', contextWindow: 131_072, gated: true },
  { label: 'Qwen3 8B', repo: 'Qwen/Qwen3-8B', family: 'Qwen 3', contextWindow: 32_768 },
  { label: 'Qwen3 32B', repo: 'Qwen/Qwen3-32B', family: 'Qwen 3', contextWindow: 32_768 },
  { label: 'DeepSeek V3', repo: 'deepseek-ai/DeepSeek-V3', family: 'DeepSeek V3', contextWindow: 131_072 },
  { label: 'DeepSeek R1', repo: 'deepseek-ai/DeepSeek-R1', family: 'DeepSeek V3', contextWindow: 131_072 },
  { label: 'Gemma 3 12B Instruct', repo: 'google/gemma-3-12b-it', family: 'Gemma 3', contextWindow: 131_072, gated: true },
  { label: 'Gemma 3 27B Instruct', repo: 'google/gemma-3-27b-it', family: 'Gemma 3', contextWindow: 131_072, gated: true },
  { label: 'gpt-oss-20b', repo: 'openai/gpt-oss-20b', family: 'gpt-oss', contextWindow: 131_072 },
  { label: 'gpt-oss-120b', repo: 'openai/gpt-oss-120b', family: 'gpt-oss', contextWindow: 131_072 },
  { label: 'Mistral 7B Instruct v0.3', repo: 'mistralai/Mistral-7B-Instruct-v0.3', family: 'Mistral', contextWindow: 32_768, gated: true },
  { label: 'Mistral Nemo Instruct 2407', repo: 'mistralai/Mistral-Nemo-Instruct-2407', family: 'Mistral', contextWindow: 131_072 },
  { label: 'Phi-4', repo: 'microsoft/phi-4', family: 'Phi-4', contextWindow: 16_384 },
  { label: 'Phi-4-mini-instruct', repo: 'microsoft/Phi-4-mini-instruct', family: 'Phi-4', contextWindow: 131_072 },
];

/** owner/name as the hub spells repositories: letters, digits, '-', '_', '.', no '..', at most 96 characters each. */
export function isRepoId(repo: string): boolean {
  return /^[A-Za-z0-9][\w.-]{0,95}\/[A-Za-z0-9][\w.-]{0,95}$/.test(repo) && !repo.includes('..');
}
