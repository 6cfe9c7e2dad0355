/**
 * One application command as data: where it posts, how it asks for its input (through `Prompts`, so
 * the modules stay free of `vscode` and are tested in Node), and how it checks a body written by hand
 * (the JSON request editor, programmatic calls) before anything is sent.
 */
import type { DiffractionData } from '../diffraction/parse';
import type { AppKind } from '../runs/run';
import type { Locale, Translate } from '../util/locale';

export type Body = Record<string, unknown>;

export interface TextPrompt {
  title: string;
  prompt: string;
  value?: string;
  placeHolder?: string;
  /** The message to show while the value is not acceptable (Enter is refused). */
  check(value: string): string | undefined;
}

export interface PickItem {
  label: string;
  description?: string;
  detail?: string;
}

export interface PickPrompt {
  title: string;
  placeHolder: string;
  items: PickItem[];
  /** Also accept what the user typed that matches no item, when it passes this check. */
  typed?: (value: string) => string | undefined;
}

/** What an application may ask of the editor. */
export interface Prompts {
  text(prompt: TextPrompt): Promise<string | undefined>;
  pick(prompt: PickPrompt): Promise<string | undefined>;
  /** The active diffraction-data document, if any. */
  diffraction(): { name: string; uri: string; data: DiffractionData } | undefined;
  /** Values entered before (newest first) for a history key. */
  history(key: string): string[];
  /** The open POSCAR documents: name, text, and the first error if any. */
  poscars(): { name: string; text: string; error?: string }[];
}

/** Not sent: why, and where in the input (the editor selects it). */
export interface Refusal {
  refuse: string;
  at?: { uri: string; line: number; start: number; end: number };
}

export interface Asked {
  body: Body;
  /** Where the input came from: a data file, for Reveal Input. */
  inputUri?: string;
  /** History entries to remember once sent. */
  remember?: { key: string; value: string };
}

export interface Application {
  kind: AppKind;
  /** tokenLens.<id> */
  command: string;
  /** "Search Materials", worded by `t`. */
  title(t: Translate): string;
  /** POST path, e.g. /materials_explorer/search */
  path: string;
  /** A request to start from in the JSON editor. */
  example: Body;
  /** Asks in `locale` (English when not given). */
  ask(prompts: Prompts, locale?: Locale): Promise<Asked | Refusal | undefined>;
  /** A hand-written body: the message when it cannot be sent, in `locale` (English when not given). */
  check(body: Body, locale?: Locale): string | undefined;
  /** What the Runs list calls the input: "Si", "JVASP-1002"; its words (if any) in `t`, English when not given. */
  name(body: Body, t?: Translate): string;
  /** A structure in the answer, opened as a POSCAR document once the run is done (heterostructure). */
  structure?(answer: unknown): string | undefined;
}

export const isRefusal = (value: Asked | Refusal | undefined): value is Refusal => value !== undefined && 'refuse' in value;

// ---- shared checks of hand-written bodies ----

export function stringField(
  { t }: Locale,
  body: Body,
  field: string,
  required: boolean,
  check?: (v: string) => string | undefined,
): string | undefined {
  const value = body[field];
  if (value === undefined || value === null) return required ? t('"{0}" is required.', field) : undefined;
  if (typeof value !== 'string') return t('"{0}" must be a string.', field);
  return check?.(value);
}

export function numberField({ t }: Locale, body: Body, field: string, min = -Infinity, max = Infinity): string | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value)) return t('"{0}" must be a number.', field);
  if (value >= min && value <= max) return undefined;
  return max === Infinity ? t('"{0}" must be at least {1}.', field, min) : t('"{0}" must be between {1} and {2}.', field, min, max);
}

export function firstProblem(...problems: (string | undefined)[]): string | undefined {
  return problems.find((p) => p !== undefined);
}
