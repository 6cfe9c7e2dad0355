import { readFileSync } from 'node:fs';
import { DEFAULT_TOKENIZER, loadTokenizerSync, UnknownTokenizerError, type SpecialTokenMode } from './tokenizers';

const USAGE = `Usage: node dist/cli.js tokenize [--tokenizer NAME] [--special-tokens text|special] [FILE]
Prints the spec 2.2 JSON for FILE, or for standard input without FILE.`;

interface Args {
  tokenizer: string;
  specialTokens: SpecialTokenMode;
  file: string | undefined;
}

class UsageError extends Error {}

function parse(argv: string[]): Args {
  const [command, ...rest] = argv;
  if (command !== 'tokenize') throw new UsageError(command ? `Unknown command "${command}".` : 'No command given.');
  const args: Args = { tokenizer: DEFAULT_TOKENIZER, specialTokens: 'text', file: undefined };
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

export function main(argv: string[]): number {
  try {
    const args = parse(argv);
    const tokenizer = loadTokenizerSync(args.tokenizer, { specialTokens: args.specialTokens });
    process.stdout.write(`${JSON.stringify(tokenizer.tokenize(readInput(args.file)))}\n`);
    return 0;
  } catch (error) {
    if (!(error instanceof UsageError || error instanceof UnknownTokenizerError)) throw error;
    process.stderr.write(`${error.message}\n${error instanceof UsageError ? `${USAGE}\n` : ''}`);
    return 2;
  }
}

if (require.main === module) process.exitCode = main(process.argv.slice(2));
