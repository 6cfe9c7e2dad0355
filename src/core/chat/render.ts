/**
 * Renders a chat template with @huggingface/jinja, the engine transformers.js renders templates with, inside
 * bounds. A template is outside text: the engine gives it nothing but the context (no attribute reaches
 * JavaScript objects, no file, no import), and this interpreter adds what the engine lacks for hostile input:
 * a deadline checked while it evaluates, a nesting depth (recursive macros), a cap on every value it builds
 * (strings and lists) and on range(). Each evaluation step at most doubles the largest value so far, so the
 * memory a template can take is bounded by the caps, and the time by the deadline. The worker thread the
 * Node hosts render in (src/features/chat/renderPool.ts) adds a memory limit the process keeps.
 */
/** The part of @huggingface/jinja used here: its published types do not resolve under node16 (extensionless imports). */
interface Value {
  type: string;
  value: unknown;
}
type Program = object;
interface Environment {
  set(name: string, value: unknown): unknown;
}
interface JinjaInterpreter {
  run(program: Program): Value;
  evaluate(statement: unknown, environment: Environment): Value;
}
interface Jinja {
  Environment: new () => Environment;
  Interpreter: new (env: Environment) => JinjaInterpreter;
  tokenize(text: string, options: { lstrip_blocks: boolean; trim_blocks: boolean }): unknown;
  parse(tokens: unknown): Program;
}

interface Engine {
  jinja: Jinja;
  /** The engine's interpreter within the limits (boundedInterpreter), named by what renderTemplate uses of it. */
  Bounded: new (env: Environment, limits: RenderLimits) => JinjaInterpreter & { readonly raised: boolean };
}
let engine: Promise<Engine> | undefined;

/** The engine is an ES module package: loaded once, on the first template (a window that never counts a chat never loads it). */
function loadEngine(): Promise<Engine> {
  return (engine ??= (import('@huggingface/jinja') as Promise<unknown> as Promise<Jinja>).then((jinja) => ({
    jinja,
    Bounded: boundedInterpreter(jinja),
  })));
}

export interface RenderLimits {
  /** Milliseconds the rendering may take. */
  maxMs: number;
  /** Characters in any one string the template builds, the output included. */
  maxChars: number;
  /** Items in any one list it builds, and in a range(). */
  maxItems: number;
  /** Nested evaluations: recursion and deeply nested expressions. */
  maxDepth: number;
}

/**
 * Far above what real templates need (milliseconds, tens of levels, lists of messages), far below a frozen
 * editor. maxItems is small because the engine prepares a loop over all its items before the first one runs
 * (a scope per item, ~6 µs each, with no evaluation to check the deadline in): 20,000 items are ~0.1 s.
 */
export const RENDER_LIMITS: RenderLimits = { maxMs: 2_000, maxChars: 16_000_000, maxItems: 20_000, maxDepth: 400 };

/** Real templates are at most a few tens of kilobytes. */
export const MAX_TEMPLATE_CHARS = 200_000;

export type TemplateErrorKind = 'syntax' | 'raised' | 'limit' | 'failed';

export class TemplateError extends Error {
  constructor(
    readonly kind: TemplateErrorKind,
    message: string,
  ) {
    super(message);
    this.name = 'TemplateError';
  }
}

export interface CompiledTemplate {
  readonly program: Program;
  readonly engine: Engine;
}

/** Parses a template as transformers.js does (lstrip_blocks and trim_blocks on). */
export async function compileTemplate(text: string): Promise<CompiledTemplate> {
  if (text.length > MAX_TEMPLATE_CHARS)
    throw new TemplateError(
      'limit',
      `The chat template is ${text.length.toLocaleString('en-US')} characters, more than the ${MAX_TEMPLATE_CHARS.toLocaleString('en-US')} a template may have.`,
    );
  const loaded = await loadEngine();
  const { parse, tokenize } = loaded.jinja;
  try {
    return { program: parse(tokenize(text, { lstrip_blocks: true, trim_blocks: true })), engine: loaded };
  } catch (error) {
    throw new TemplateError('syntax', `The chat template cannot be read: ${reason(error)}`);
  }
}

/** The rendered text; a TemplateError says why there is none (the template raised, passed a limit, or failed). */
export function renderTemplate(template: CompiledTemplate, context: Record<string, unknown>, limits = RENDER_LIMITS): string {
  const { jinja, Bounded } = template.engine;
  let interpreter: InstanceType<typeof Bounded> | undefined;
  try {
    const env = new jinja.Environment();
    // Converting the context recurses into it: a conversation nested thousands deep is a RangeError here.
    for (const [key, value] of Object.entries({ ...globals(limits), ...context })) env.set(key, value);
    interpreter = new Bounded(env, limits);
    return interpreter.run(template.program).value as string;
  } catch (error) {
    if (error instanceof TemplateError) throw error;
    if (error instanceof RangeError)
      throw new TemplateError('limit', `The chat template went too deep or built too much (${error.message}); it was stopped.`);
    if (interpreter?.raised) throw new TemplateError('raised', `The chat template refused the conversation: ${reason(error)}`);
    throw new TemplateError('failed', `The chat template failed: ${reason(error)}`);
  }
}

function boundedInterpreter(jinja: Jinja) {
  return class BoundedInterpreter extends jinja.Interpreter {
    raised = false;
    private readonly deadline: number;
    private steps = 0;
    private depth = 0;

    constructor(
      env: Environment,
      private readonly limits: RenderLimits,
    ) {
      super(env);
      this.deadline = performance.now() + limits.maxMs;
      // raise_exception is the template's own refusal (a role out of order): its message is the answer.
      env.set('raise_exception', (message: unknown) => {
        this.raised = true;
        throw new Error(String(message));
      });
    }

    override evaluate(statement: unknown, environment: Environment): Value {
      if ((++this.steps & 7) === 0 && performance.now() > this.deadline)
        throw new TemplateError('limit', `The chat template ran longer than ${this.limits.maxMs} ms and was stopped (it may loop).`);
      if (++this.depth > this.limits.maxDepth)
        throw new TemplateError(
          'limit',
          `The chat template nested deeper than ${this.limits.maxDepth} levels (it may recurse without end) and was stopped.`,
        );
      try {
        return this.checked(super.evaluate(statement, environment));
      } finally {
        this.depth--;
      }
    }

    private checked(value: Value): Value {
      const { maxChars, maxItems } = this.limits;
      if (typeof value.value === 'string' && value.value.length > maxChars)
        throw new TemplateError(
          'limit',
          `The chat template built a text of more than ${maxChars.toLocaleString('en-US')} characters and was stopped.`,
        );
      if (Array.isArray(value.value) && value.value.length > maxItems)
        throw new TemplateError(
          'limit',
          `The chat template built a list of more than ${maxItems.toLocaleString('en-US')} items and was stopped.`,
        );
      return value;
    }
  };
}

/** What the engine's own globals hold (setupGlobals, which it does not export), with range() capped. */
function globals(limits: RenderLimits): Record<string, unknown> {
  return {
    true: true,
    false: false,
    none: null,
    True: true,
    False: false,
    None: null,
    range: (start: number, stop?: number, step = 1) => boundedRange(start, stop, step, limits.maxItems),
    strftime_now: (format: string) => strftime(new Date(), String(format)),
  };
}

function boundedRange(start: number, stop: number | undefined, step: number, maxItems: number): number[] {
  const [from, to] = stop === undefined ? [0, start] : [start, stop];
  if (![from, to, step].every(Number.isInteger)) throw new Error('range() takes integers');
  if (step === 0) throw new Error('range() step must not be zero');
  const count = Math.max(0, Math.ceil((to - from) / step));
  if (count > maxItems)
    throw new TemplateError(
      'limit',
      `The chat template asked for range() of ${count.toLocaleString('en-US')} items, more than ${maxItems.toLocaleString('en-US')}; it was stopped.`,
    );
  return Array.from({ length: count }, (_, i) => from + i * step);
}

const pad2 = (n: number): string => String(n).padStart(2, '0');

/** The engine's strftime (%Y %m %d %b %B %H %M %%), with English month names as Python's C locale has them. */
export function strftime(date: Date, format: string): string {
  const month = (style: 'long' | 'short') => date.toLocaleString('en-US', { month: style });
  const fields: Record<string, () => string> = {
    '%Y': () => String(date.getFullYear()),
    '%m': () => pad2(date.getMonth() + 1),
    '%d': () => pad2(date.getDate()),
    '%b': () => month('short'),
    '%B': () => month('long'),
    '%H': () => pad2(date.getHours()),
    '%M': () => pad2(date.getMinutes()),
    '%%': () => '%',
  };
  return format.replace(/%[YmdbBHM%]/g, (token) => fields[token]!());
}

function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
