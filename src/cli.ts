import { readFileSync, statSync } from 'node:fs';
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
endColumn exclusive), severity, message and code. Exit code 1 when any file has errors.`;

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

/** A built-in name, or a path ending in .json read as a Hugging Face tokenizer.json (size-capped; any problem names the file). */
function tokenizerFor(args: TokenizeArgs): Tokenizer {
  if (!/\.json$/i.test(args.tokenizer)) return loadTokenizerSync(args.tokenizer, { specialTokens: args.specialTokens });
  const file = args.tokenizer;
  let text: string;
  try {
    const { size } = statSync(file);
    if (size > MAX_TOKENIZER_JSON_CHARS) throw new UsageError(`${file} is ${size} bytes, more than a tokenizer.json may have.`);
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`Cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}.`);
  }
  try {
    return loadHuggingFaceTokenizer(text, { name: file, specialTokens: args.specialTokens });
  } catch (error) {
    throw new UsageError(`Cannot use ${file}: ${(error as Error).message}`);
  }
}

function tokenize(rest: string[]): number {
  const args = parseTokenizeArgs(rest);
  const tokenizer = tokenizerFor(args);
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

const COMMANDS = new Map<string, (rest: string[]) => number>([
  ['tokenize', tokenize],
  ['poscar', poscar],
]);

const HELP = new Set(['--help', '-h', 'help']);

export function main(argv: string[]): number {
  const [command, ...rest] = argv;
  if (argv.some((arg) => HELP.has(arg))) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  try {
    const run = command === undefined ? undefined : COMMANDS.get(command);
    if (!run) throw new UsageError(command ? `Unknown command "${command}".` : 'No command given.');
    return run(rest);
  } catch (error) {
    if (!(error instanceof UsageError || error instanceof UnknownTokenizerError || error instanceof NotExactError)) throw error;
    process.stderr.write(`${error.message}\n${error instanceof UsageError ? `${USAGE}\n` : ''}`);
    return 2;
  }
}

if (require.main === module) process.exitCode = main(process.argv.slice(2));
