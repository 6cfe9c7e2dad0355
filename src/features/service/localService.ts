/**
 * The built-in local service: the reference server (dist/server/main.js, shipped in the extension)
 * run as a child process on 127.0.0.1, so the materials commands work offline and without an account.
 * It answers with the reference models (named in every answer's `method`), starts on first use, and
 * stops with its owner (dispose) or when the extension host goes away (the server exits when its IPC
 * channel closes). The key travels in the environment, not on the command line others can list. Pure:
 * no `vscode` import.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { redact } from '../../core/service/redact';

export interface LocalServiceOptions {
  /** The server bundle. */
  script: string;
  /** The key it accepts. */
  key: string;
  /** A port to try first (the last one used keeps the origin, and so its stored key, stable); 0 for any. */
  port?: number;
  log?: (line: string) => void;
}

const STARTUP_MS = 20_000;
const LISTENING = /listening on (http:\/\/127\.0\.0\.1:\d+)/;

export class LocalService {
  private child: ChildProcess | undefined;
  private starting: Promise<string> | undefined;

  constructor(private readonly options: LocalServiceOptions) {}

  /** Its base URL once it listens, starting it when needed. */
  url(): Promise<string> {
    this.starting ??= this.launch(this.options.port ?? 0)
      .catch((error: unknown) => {
        if (!this.options.port) throw error;
        return this.launch(0); // the port of last time is taken: any other will do
      })
      .catch((error: unknown) => {
        this.starting = undefined;
        throw error;
      });
    return this.starting;
  }

  get running(): boolean {
    return this.child !== undefined && this.child.exitCode === null;
  }

  dispose(): void {
    this.child?.kill();
    this.child = undefined;
    this.starting = undefined;
  }

  private launch(port: number): Promise<string> {
    return new Promise((resolve, reject) => {
      const child = fork(this.options.script, ['--host', '127.0.0.1', '--port', String(port), '--rate', '100000'], {
        env: { ...process.env, TOKEN_LENS_API_KEY: this.options.key },
        stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      });
      this.child = child;
      let output = '';
      const timer = setTimeout(() => fail(new Error(`the built-in service did not start within ${STARTUP_MS / 1000} s`)), STARTUP_MS);
      const fail = (error: Error): void => {
        clearTimeout(timer);
        child.kill();
        if (this.child === child) this.child = undefined;
        reject(error);
      };
      child.stdout!.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const found = LISTENING.exec(output);
        if (!found) return;
        clearTimeout(timer);
        this.options.log?.(`Built-in service listening on ${found[1]}`);
        resolve(found[1]!);
      });
      child.stderr!.on('data', (chunk: Buffer) =>
        this.options.log?.(`Built-in service: ${redact(chunk.toString().trim(), this.options.key)}`),
      );
      child.once('error', fail);
      child.once('exit', (code) => {
        if (this.child === child) {
          this.child = undefined;
          this.starting = undefined;
        }
        fail(new Error(`the built-in service stopped (exit code ${code ?? 'none'})`));
      });
    });
  }
}
