/**
 * The scientist's parameters of a relaxation and an MD run, as optional request fields named as the
 * service's published Python client (agapi) names them: relax takes fmax, steps, optimizer and relax_cell;
 * MD takes temperature, timestep (fs), steps, interval (frames kept) and ensemble. Their settings, ranges
 * (the reference server's), parsing of what a user types, and which fields a request carries. Pure.
 *
 * What is sent: a field whose value differs from its default, and no other. The defaults are the reference
 * server's, so a run left at its defaults sends the same request as before these options existed (only the
 * POSCAR), and the service applies its own defaults.
 */
import { SETTING_DEFAULTS, type SettingKey } from '../settings';
import { isRecord } from '../util/guards';
import { ENGLISH, type Locale, type Translate } from '../util/locale';

export const PARAMETER_KINDS = ['relax', 'md'] as const;
export type ParameterKind = (typeof PARAMETER_KINDS)[number];

export type ParameterValue = number | string | boolean;
/** Values by request field name ("fmax", "relax_cell", …). */
export type ParameterValues = Record<string, ParameterValue>;

interface Base {
  /** The request field, as agapi names it. */
  name: string;
  /** The tokenLens.* setting that holds its default for the plain command. */
  setting: SettingKey;
  /** What it does, in a few words (the form's description), in the words of the caller's `t`. */
  about: (t: Translate) => string;
}

export interface NumberParameter extends Base {
  type: 'number';
  default: number;
  min: number;
  max: number;
  integer: boolean;
  unit: string;
}

export interface ChoiceParameter extends Base {
  type: 'choice';
  default: string;
  choices: readonly string[];
}

export interface BooleanParameter extends Base {
  type: 'boolean';
  default: boolean;
}

export type Parameter = NumberParameter | ChoiceParameter | BooleanParameter;

const number = (
  name: string,
  setting: SettingKey & keyof typeof SETTING_DEFAULTS,
  range: { min: number; max: number; integer?: boolean; unit: string },
  about: (t: Translate) => string,
): NumberParameter => ({
  type: 'number',
  name,
  setting,
  default: SETTING_DEFAULTS[setting] as number,
  min: range.min,
  max: range.max,
  integer: range.integer === true,
  unit: range.unit,
  about,
});

/** Every parameter of each kind, in the form's order. Ranges are what the reference server accepts. */
export const PARAMETERS: Record<ParameterKind, readonly Parameter[]> = {
  relax: [
    number('fmax', 'relax.fmax', { min: 0.001, max: 10, unit: 'eV/Å' }, (t) => t('converged when every force is below this')),
    number('steps', 'relax.steps', { min: 1, max: 1000, integer: true, unit: 'steps' }, (t) => t('the most optimizer steps')),
    {
      type: 'choice',
      name: 'optimizer',
      setting: 'relax.optimizer',
      default: SETTING_DEFAULTS['relax.optimizer'],
      choices: ['FIRE'],
      about: (t) => t('the optimizer (the reference server runs FIRE)'),
    },
    {
      type: 'boolean',
      name: 'relax_cell',
      setting: 'relax.relaxCell',
      default: SETTING_DEFAULTS['relax.relaxCell'],
      about: (t) => t('relax the cell with the positions'),
    },
  ],
  md: [
    number('temperature', 'md.temperature', { min: 0, max: 5000, unit: 'K' }, (t) =>
      t('initial temperature, and the thermostat’s under nvt'),
    ),
    number('timestep', 'md.timestep', { min: 0.01, max: 5, unit: 'fs' }, (t) => t('the time step')),
    number('steps', 'md.steps', { min: 1, max: 2000, integer: true, unit: 'steps' }, (t) => t('how many time steps')),
    number('interval', 'md.interval', { min: 1, max: 2000, integer: true, unit: 'steps' }, (t) =>
      t('a trajectory frame kept every so many steps'),
    ),
    {
      type: 'choice',
      name: 'ensemble',
      setting: 'md.ensemble',
      default: SETTING_DEFAULTS['md.ensemble'],
      choices: ['nve', 'nvt'],
      about: (t) => t('nve: constant energy; nvt: a Langevin thermostat at the temperature'),
    },
  ],
};

export function isParameterKind(kind: string): kind is ParameterKind {
  return (PARAMETER_KINDS as readonly string[]).includes(kind);
}

export type Parsed = { ok: true; value: ParameterValue } | { ok: false; message: string };

/** Plain decimal or exponent notation only: no hex, no Infinity, no thousands separators. */
const DECIMAL = /^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i;

/** The range in words: "a number from 0.001 to 10 eV/Å", "a whole number from 1 to 1000". */
export function rangeText(p: NumberParameter, { t }: Locale = ENGLISH): string {
  if (p.unit === 'steps')
    return p.integer ? t('a whole number from {0} to {1}', p.min, p.max) : t('a number from {0} to {1}', p.min, p.max);
  return p.integer
    ? t('a whole number from {0} to {1} {2}', p.min, p.max, p.unit)
    : t('a number from {0} to {1} {2}', p.min, p.max, p.unit);
}

/** What the user typed (or a stored value) as the parameter's value, or why not. Never throws. */
export function parseValue(p: Parameter, input: unknown, locale: Locale = ENGLISH): Parsed {
  const { t } = locale;
  switch (p.type) {
    case 'number':
      return parseNumber(p, input, locale);
    case 'boolean': {
      const word = typeof input === 'string' ? input.trim().toLowerCase() : input;
      if (word === true || word === 'true') return { ok: true, value: true };
      if (word === false || word === 'false') return { ok: true, value: false };
      return { ok: false, message: t('{0} must be true or false.', p.name) };
    }
    case 'choice': {
      const word = typeof input === 'string' ? input.trim() : undefined;
      const found = word === undefined ? undefined : p.choices.find((c) => c.toLowerCase() === word.toLowerCase());
      return found === undefined
        ? { ok: false, message: t('{0} must be {1}.', p.name, choiceText(p.choices, locale)) }
        : { ok: true, value: found };
    }
  }
}

function choiceText(choices: readonly string[], { t }: Locale): string {
  return choices.length === 1 ? choices[0]! : t('{0} or {1}', choices.slice(0, -1).join(', '), choices.at(-1)!);
}

function parseNumber(p: NumberParameter, input: unknown, locale: Locale): Parsed {
  const { t } = locale;
  const wrong: Parsed = { ok: false, message: t('{0} must be {1}.', p.name, rangeText(p, locale)) };
  let n: number;
  if (typeof input === 'number') n = input;
  else if (typeof input === 'string') {
    const text = input.trim();
    if (!text) return { ok: false, message: t('Enter {0}: {1}.', p.name, rangeText(p, locale)) };
    if (text.length > 40 || !DECIMAL.test(text)) return wrong;
    n = Number(text);
  } else return wrong;
  if (!Number.isFinite(n) || n < p.min || n > p.max) return wrong;
  if (p.integer && !Number.isInteger(n))
    return { ok: false, message: t('{0} must be a whole number ({1}).', p.name, rangeText(p, locale)) };
  return { ok: true, value: Object.is(n, -0) ? 0 : n };
}

/** The InputBox's check: undefined when the text is a valid value, else the message. Never throws. */
export function validateInput(p: Parameter, text: string, locale: Locale = ENGLISH): string | undefined {
  const parsed = parseValue(p, text, locale);
  return parsed.ok ? undefined : parsed.message;
}

/** A value as the form and the result view write it: "0.05 eV/Å", "200 steps", "nvt", "true". */
export function formatValue(p: Parameter, value: ParameterValue): string {
  if (p.type !== 'number' || typeof value !== 'number') return String(value);
  return `${value} ${p.unit === 'steps' && value === 1 ? 'step' : p.unit}`;
}

/** A row of the options form: the value ("0.05 eV/Å (default: not sent)") and what the parameter does. */
export function parameterRow(p: Parameter, value: ParameterValue, { t }: Locale = ENGLISH): { description: string; detail: string } {
  const shown = formatValue(p, value);
  return { description: value === p.default ? t('{0} (default: not sent)', shown) : shown, detail: p.about(t) };
}

/** Every parameter of a kind at its default. */
export function defaultValues(kind: ParameterKind): ParameterValues {
  return Object.fromEntries(PARAMETERS[kind].map((p) => [p.name, p.default]));
}

/**
 * Values to start from: each of `stored` that is valid for its parameter, else the fallback's, else the default.
 * For values kept in workspace state or read from settings: whatever they hold, the result is valid.
 */
export function reviveValues(kind: ParameterKind, stored: unknown, fallback: ParameterValues = {}): ParameterValues {
  const source = isRecord(stored) ? stored : {};
  const values: ParameterValues = {};
  for (const p of PARAMETERS[kind]) {
    const own = Object.hasOwn(source, p.name) ? parseValue(p, source[p.name]) : undefined;
    const backup = Object.hasOwn(fallback, p.name) ? parseValue(p, fallback[p.name]) : undefined;
    values[p.name] = own?.ok ? own.value : backup?.ok ? backup.value : p.default;
  }
  return values;
}

/**
 * The first value that is not valid for its parameter, as a message (naming its setting when the values are the
 * settings'); undefined when all are valid. A missing value is its default.
 */
export function firstProblem(
  kind: ParameterKind,
  values: ParameterValues,
  fromSettings = true,
  locale: Locale = ENGLISH,
): string | undefined {
  const { t } = locale;
  for (const p of PARAMETERS[kind]) {
    const parsed = parseValue(p, values[p.name] ?? p.default, locale);
    if (parsed.ok) continue;
    const shown = JSON.stringify(values[p.name])?.slice(0, 60) ?? String(values[p.name]);
    return fromSettings
      ? t('{0} (the setting tokenLens.{1} is {2})', parsed.message, p.setting, shown)
      : t('{0} (given {1})', parsed.message, shown);
  }
  return undefined;
}

/** The request's optional fields: each valid value that differs from its default (see the module's note). */
export function requestFields(kind: ParameterKind, values: ParameterValues): ParameterValues {
  const fields: ParameterValues = {};
  for (const p of PARAMETERS[kind]) {
    const parsed = parseValue(p, values[p.name] ?? p.default);
    if (parsed.ok && parsed.value !== p.default) fields[p.name] = parsed.value;
  }
  return fields;
}

/** The parameter fields of a request body, as a run record keeps them (unknown names and bad values left out). */
export function sentParameters(kind: ParameterKind, body: unknown): ParameterValues {
  const source = isRecord(body) ? body : {};
  const sent: ParameterValues = {};
  for (const p of PARAMETERS[kind]) {
    if (!Object.hasOwn(source, p.name)) continue;
    const parsed = parseValue(p, source[p.name]);
    if (parsed.ok) sent[p.name] = parsed.value;
  }
  return sent;
}

/** Where an answer states the value it used (the reference server's names first), per parameter. */
const ECHOES: Record<ParameterKind, Record<string, readonly string[]>> = {
  relax: { fmax: ['fmax'], steps: ['max_steps', 'steps'], optimizer: ['optimizer'], relax_cell: ['relax_cell'] },
  md: {
    temperature: ['temperature'],
    timestep: ['timestep_fs', 'timestep'],
    steps: ['steps'],
    interval: ['interval'],
    ensemble: ['ensemble'],
  },
};

export interface ParameterRow {
  name: string;
  /** What the request carried: "0.02 eV/Å", or "not sent (default)": the service applies its own. */
  sent: string;
  /** What the answer says it used, or "" when it does not say (or there is no answer yet). */
  answer: string;
}

export const NOT_SENT = 'not sent (default)';

/** The Parameters table of a result view: every parameter of the kind, as sent and as the answer states it. */
export function parameterRows(kind: ParameterKind, sent: ParameterValues, answer: unknown): ParameterRow[] {
  const body = isRecord(answer) ? answer : {};
  return PARAMETERS[kind].map((p) => {
    const value = Object.hasOwn(sent, p.name) ? sent[p.name] : undefined;
    const echoed = ECHOES[kind][p.name]!.map((name) => body[name]).find(isEcho);
    return {
      name: p.name,
      sent: value === undefined ? NOT_SENT : formatValue(p, value),
      answer: echoed === undefined ? '' : formatValue(p, typeof echoed === 'string' ? echoed.slice(0, 100) : echoed),
    };
  });
}

const isEcho = (v: unknown): v is ParameterValue =>
  (typeof v === 'number' && Number.isFinite(v)) || typeof v === 'boolean' || typeof v === 'string';
