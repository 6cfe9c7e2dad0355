/**
 * The reference server's command line:
 *   node dist/server/main.js --port 8000 --api-key KEY [--host 127.0.0.1] [--rate 100] [--faults]
 * Prints its URL and the key it accepts. Without --api-key a random key is generated and printed.
 */
import { randomBytes } from 'node:crypto';
import { createServer } from './http/app';

interface Args {
  port: number;
  host: string;
  apiKey: string;
  rate: number;
  faults: boolean;
}

const USAGE = 'Usage: main.js [--port N] [--host H] [--api-key KEY] [--rate N] [--faults]';
const HELP = `${USAGE}

The Token Lens reference server: the service's whole REST interface, computed from the input.
  --port N       port to listen on (default 8000; 0 picks a free one)
  --host H       address to listen on (default 127.0.0.1)
  --api-key KEY  the key it accepts (default: TOKEN_LENS_API_KEY, else a random one, printed)
  --rate N       requests per minute per key before 429 (default 100)
  --faults       serve POST/GET/DELETE /__faults so tests can stage failures
  --help, -h     this text`;

export function parseArgs(argv: string[]): Args {
  const args: Args = { port: 8000, host: '127.0.0.1', apiKey: '', rate: 100, faults: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const [flag, inline] = arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = (): string => {
      const v = inline ?? argv[++i];
      if (v === undefined) throw new Error(`${flag} needs a value. ${USAGE}`);
      return v;
    };
    switch (flag) {
      case '--port': {
        const port = Number(value());
        if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be 0-65535. ${USAGE}`);
        args.port = port;
        break;
      }
      case '--host':
        args.host = value();
        break;
      case '--api-key':
        args.apiKey = value();
        break;
      case '--rate': {
        const rate = Number(value());
        if (!Number.isInteger(rate) || rate < 1) throw new Error(`--rate must be a positive integer. ${USAGE}`);
        args.rate = rate;
        break;
      }
      case '--faults':
        args.faults = true;
        break;
      default:
        throw new Error(`Unknown argument ${arg}. ${USAGE}`);
    }
  }
  if (!args.apiKey) args.apiKey = process.env.TOKEN_LENS_API_KEY || `tl-${randomBytes(12).toString('hex')}`;
  return args;
}

async function main(): Promise<void> {
  if (process.argv.slice(2).some((arg) => arg === '--help' || arg === '-h')) {
    process.stdout.write(`${HELP}\n`);
    return;
  }
  let args: Args;
  try {
    args = parseArgs(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    process.exitCode = 2;
    return;
  }
  const server = createServer({ apiKey: args.apiKey, ratePerMinute: args.rate, faults: args.faults });
  const url = await server.listen(args.port, args.host);
  process.stdout.write(`Token Lens reference server listening on ${url}\n`);
  process.stdout.write(`API key: ${args.apiKey}\n`);
  process.stdout.write(`Rate limit: ${args.rate} requests per minute per key${args.faults ? '; fault injection at POST /__faults' : ''}\n`);
  const stop = (): void => {
    void server.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  // Started by the extension (the built-in local service): it goes when the extension host goes.
  if (process.send) process.on('disconnect', stop);
}

if (require.main === module) void main();
