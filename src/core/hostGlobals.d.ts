/**
 * The globals the core may use: those that Node 20, browsers and web workers all have. The core compiles
 * without Node's and the DOM's types (src/core/tsconfig.json), so that it cannot reach for anything else;
 * these declarations are the narrow parts it needs. The other configs exclude this file and see the hosts'
 * own, wider types.
 */
declare const performance: { now(): number };
declare function setTimeout(handler: () => void, ms?: number): unknown;
declare function clearTimeout(handle: unknown): void;
/** Node has it; a browser worker does not (util/yield.ts checks). */
declare const setImmediate: ((handler: () => void) => unknown) | undefined;
declare class MessageChannel {
  readonly port1: { onmessage: ((event: unknown) => void) | null };
  readonly port2: { postMessage(message: unknown): void };
}
declare class TextEncoder {
  encode(input?: string): Uint8Array;
  encodeInto(source: string, destination: Uint8Array): { read: number; written: number };
}
declare class TextDecoder {
  constructor(label?: string, options?: { fatal?: boolean });
  decode(input?: Uint8Array, options?: { stream?: boolean }): string;
}
declare class URL {
  constructor(url: string, base?: string);
  readonly protocol: string;
  readonly hostname: string;
  readonly origin: string;
  readonly search: string;
  readonly hash: string;
  readonly username: string;
  readonly password: string;
}
declare function btoa(data: string): string;
interface AbortSignal {
  readonly aborted: boolean;
  readonly reason: unknown;
}
/**
 * CommonJS, where the host has it (the Node bundles): tokenizers/tiktoken/ranks.ts reads the shipped rank files with it.
 * The web host never calls that path; it sets a RankSource instead.
 */
declare const require: ((id: string) => unknown) & { cache: Record<string, unknown>; resolve(id: string): string };
declare const __dirname: string;
