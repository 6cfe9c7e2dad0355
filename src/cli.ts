import { readFileSync, statSync } from 'node:fs';
import {
  countDataset,
  formatFor,
  readModelChatConfig,
  ChatConfigError,
  type ChatModel,
  type LineResult,
  type ModelChatConfig,
} from './core/chat/index';
import { xrd, XRD_USAGE } from './cliXrd';
import { STRUCTURE_USAGE, structureCommand } from './cliStructure';
import { RenderPool, renderWorkerScript } from './features/chat/renderPool';
import { symmetryCommand, SYMMETRY_USAGE } from './features/symmetry/cli';
import { MAX_CHAT_FILE_BYTES, readChatConfig } from './features/models/store';
import { parsePoscar, summarize, type PoscarDiagnostic, type StructureSummary } from './core/poscar/index';
import {
  DEFAULT_TOKENIZER,
  loadHuggingFaceTokenizer,
  loadTokenizerSync,
  MAX_TOKENIZER_JSON_CHARS,
  NotExactError,
  UnknownTokenizerError,
  type SpecialTokenMode,
  type Tokenizer,
} from './core/tokenizers/index';

const USAGE = `Usage: node dist/cli.js tokenize [--tokenizer NAME|PATH.json] [--special-tokens text|special] [FILE]
Prints the spec 2.2 JSON for FILE, or for standard input without FILE. A tokenizer ending in .json is a
Hugging Face tokenizer.json file (Llama 3, Qwen 3, DeepSeek, Gemma 3, gpt-oss, ...).

Usage: node dist/cli.js poscar [FILE...]
Checks POSCAR/CONTCAR files (standard input without FILE or for -) and prints JSON: for one input an
object {file, summary, diagnostics}, for several an array of them in the order given. summary is null
when the file cannot be read far enough; each diagnostic has line, column and endColumn (1-based,
endColumn exclusive), severity, message and code. Exit code 1 when any file has errors.

Usage: node dist/cli.js chat [--tokenizer NAME|PATH.json] [--template PATH] [--add-generation-prompt] [FILE]
Counts conversations as the model reads them. FILE is a .json conversation (an object with "messages", or
the array itself) or a .jsonl dataset, one conversation per line (standard input without FILE is JSONL).
Prints one JSON line per conversation {line, n_messages, n_tokens, n_text_tokens} (or {line, error}), then
{totals: {conversations, errors, n_messages, n_tokens, n_text_tokens}, format}. A tokenizer.json path reads
the chat template from the tokenizer_config.json or chat_template.jinja beside it (--template overrides);
cl100k_base and o200k_base use OpenAI's documented framing, o200k_harmony the Harmony format (gpt-oss).
Exit code 1 when a line could not be counted.

${XRD_USAGE}

${SYMMETRY_USAGE}

${STRUCTURE_USAGE}`;

interface TokenizeArgs {
  tokenizer: string;
  specialTokens: SpecialTokenMode;
  file: string | undefined;
}

class UsageError extends Error {}

function parseTokenizeArgs(rest: string[]): TokenizeArgs {
  const args: TokenizeArgs = { tokenizer: DEFAULT_TOKENIZER, specialTokens: 'text', file: undefined };
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!;
    const value = () => {
      const v = rest[++i];
      if (v === undefined) throw new UsageError(`${arg} needs a value.`);
      return v;
    };
    if (arg === '--tokenizer' || arg === '-t') args.tokenizer = value();
    else if (arg === '--special-tokens') {
      const mode = value();
      if (mode !== 'text' && mode !== 'special') throw new UsageError(`--special-tokens is "text" or "special", not "${mode}".`);
      args.specialTokens = mode;
    } else if (arg.startsWith('-') && arg !== '-') throw new UsageError(`Unknown option "${arg}".`);
    else if (args.file === undefined) args.file = arg;
    else throw new UsageError('Give one file at most.');
  }
  return args;
}

function readInput(file: string | undefined): string {
  try {
    return readFileSync(file === undefined || file === '-' ? 0 : file, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? String(error);
    throw new UsageError(`Cannot read ${file ?? 'standard input'}: ${reason}.`);
  }
}

const isTokenizerFile = (name: string): boolean => /\.json$/i.test(name);

/** A file's text, refused over maxBytes before it is read; any problem names the file. */
function readCapped(file: string, maxBytes: number, what: string): string {
  try {
    const { size } = statSync(file);
    if (size > maxBytes) throw new UsageError(`${file} is ${size} bytes, more than ${what} may have.`);
    return readFileSync(file, 'utf8');
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`Cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}.`);
  }
}

/** A built-in name, or a path ending in .json read as a Hugging Face tokenizer.json (size-capped; any problem names the file). */
function tokenizerFor(name: string, specialTokens: SpecialTokenMode): Tokenizer {
  if (!isTokenizerFile(name)) return loadTokenizerSync(name, { specialTokens });
  const text = readCapped(name, MAX_TOKENIZER_JSON_CHARS, 'a tokenizer.json');
  try {
    return loadHuggingFaceTokenizer(text, { name, specialTokens });
  } catch (error) {
    throw new UsageError(`Cannot use ${name}: ${(error as Error).message}`);
  }
}

function tokenize(rest: string[]): number {
  const args = parseTokenizeArgs(rest);
  const tokenizer = tokenizerFor(args.tokenizer, args.specialTokens);
  process.stdout.write(`${JSON.stringify(tokenizer.tokenize(readInput(args.file)))}\n`);
  return 0;
}

interface PoscarReport {
  file: string;
  summary: StructureSummary | null;
  diagnostics: { line: number; column: number; endColumn: number; severity: PoscarDiagnostic['severity']; message: string; code: string }[];
}

function poscarReport(file: string, text: string): PoscarReport {
  const { poscar, diagnostics } = parsePoscar(text);
  return {
    file,
    summary: poscar ? summarize(poscar) : null,
    diagnostics: diagnostics.map(({ range, severity, message, code }) => ({
      line: range.line + 1,
      column: range.start + 1,
      endColumn: range.end + 1,
      severity,
      message,
      code,
    })),
  };
}

function poscar(rest: string[]): number {
  const unknown = rest.find((arg) => arg.startsWith('-') && arg !== '-');
  if (unknown) throw new UsageError(`Unknown option "${unknown}".`);
  const files = rest.length > 0 ? rest : ['-'];
  // Every file is read before anything is printed: an unreadable one prints nothing but the message.
  const texts = files.map(readInput);
  const reports = files.map((file, i) => poscarReport(file, texts[i]!));
  process.stdout.write(`${JSON.stringify(reports.length === 1 ? reports[0] : reports)}\n`);
  return reports.some((r) => r.diagnostics.some((d) => d.severity === 'error')) ? 1 : 0;
}

interface ChatArgs {
  tokenizer: string;
  template: string | undefined;
  addGenerationPrompt: boolean;
  file: string | undefined;
}

function parseChatArgs(rest: string[]): ChatArgs {
  const args: ChatArgs = { tokenizer: DEFAULT_TOKENIZER, template: undefined, addGenerationPrompt: false, file: undefined };
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!;
    const value = () =>
      rest[++i] ??
      (() => {
        throw new UsageError(`${arg} needs a value.`);
      })();
    if (arg === '--tokenizer' || arg === '-t') args.tokenizer = value();
    else if (arg === '--template') args.template = value();
    else if (arg === '--add-generation-prompt') args.addGenerationPrompt = true;
    else if (arg.startsWith('-') && arg !== '-') throw new UsageError(`Unknown option "${arg}".`);
    else if (args.file === undefined) args.file = arg;
    else throw new UsageError('Give one file at most.');
  }
  return args;
}

/** What the files beside a tokenizer.json (and --template) say: the template and the special tokens. */
async function chatConfigFor(args: ChatArgs): Promise<ModelChatConfig> {
  try {
    const config = isTokenizerFile(args.tokenizer) ? await readChatConfig(args.tokenizer) : readModelChatConfig(undefined);
    if (args.template === undefined) return config;
    return {
      ...config,
      templates: { templates: readCapped(args.template, MAX_CHAT_FILE_BYTES, 'a chat template file'), source: args.template },
    };
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(error instanceof ChatConfigError ? error.message : `Cannot read the chat files: ${(error as Error).message}`);
  }
}

/** A template when there is one; else OpenAI's framing or Harmony for the encodings OpenAI documents them for; else none. */
async function chatModelFor(args: ChatArgs, render: ChatModel['render']): Promise<ChatModel> {
  const config = isTokenizerFile(args.tokenizer) || args.template !== undefined ? await chatConfigFor(args) : undefined;
  const kind = isTokenizerFile(args.tokenizer) ? 'huggingface' : tokenizerFor(args.tokenizer, 'text').info.kind;
  const { format, specialTokens } = formatFor(kind, config);
  return { tokenizer: tokenizerFor(args.tokenizer, specialTokens), format, ...(format.kind === 'template' ? { render } : {}) };
}

/** A .json file is one conversation, on line 1 (malformed, it stays malformed for the line's problem to say so); anything else is JSONL. */
function chatInput(file: string | undefined): string {
  const text = readInput(file);
  if (file === undefined || !/\.json$/i.test(file)) return text;
  try {
    return JSON.stringify(JSON.parse(text));
  } catch {
    return text.replace(/\r?\n/g, ' ');
  }
}

async function chat(rest: string[]): Promise<number> {
  const args = parseChatArgs(rest);
  const pool = new RenderPool({ script: renderWorkerScript(__dirname) });
  const model = await chatModelFor(args, pool.render);
  const text = chatInput(args.file);
  const totals = { conversations: 0, errors: 0, n_messages: 0, n_tokens: 0, n_text_tokens: 0 };
  try {
    for await (const result of countDataset(text, model, { addGenerationPrompt: args.addGenerationPrompt })) {
      process.stdout.write(`${JSON.stringify(lineReport(result, totals))}\n`);
    }
  } finally {
    await pool.close();
  }
  process.stdout.write(`${JSON.stringify({ totals, format: model.format.label })}\n`);
  return totals.errors > 0 ? 1 : 0;
}

function lineReport(
  result: LineResult,
  totals: Record<'conversations' | 'errors' | 'n_messages' | 'n_tokens' | 'n_text_tokens', number>,
): object {
  if ('problem' in result) {
    totals.errors++;
    return { line: result.line, error: result.problem };
  }
  const { messages, total, text } = result.count;
  totals.conversations++;
  totals.n_messages += messages;
  totals.n_tokens += total;
  totals.n_text_tokens += text;
  return { line: result.line, n_messages: messages, n_tokens: total, n_text_tokens: text };
}

const COMMANDS = new Map<string, (rest: string[]) => number | Promise<number>>([
  ['tokenize', tokenize],
  ['poscar', poscar],
  ['chat', chat],
  ['xrd', xrd],
  ['symmetry', (rest) => symmetryCommand(rest)],
  ['structure', structureCommand],
]);

const HELP = new Set(['--help', '-h', 'help']);

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (argv.some((arg) => HELP.has(arg))) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  try {
    const run = command === undefined ? undefined : COMMANDS.get(command);
    if (!run) throw new UsageError(command ? `Unknown command "${command}".` : 'No command given.');
    return await run(rest);
  } catch (error) {
    if (!(error instanceof UsageError || error instanceof UnknownTokenizerError || error instanceof NotExactError)) throw error;
    process.stderr.write(`${error.message}\n${error instanceof UsageError ? `${USAGE}\n` : ''}`);
    return 2;
  }
}

if (require.main === module) void main(process.argv.slice(2)).then((code) => (process.exitCode = code));
