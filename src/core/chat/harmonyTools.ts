/**
 * Harmony's "# Tools" section: function definitions in the TypeScript-like syntax gpt-oss was trained on, a
 * port of openai/harmony's renderer (src/encoding.rs, json_schema_to_typescript and template_tools_section, at
 * commit ec7606d), so that a conversation's tools count as the model reads them. Its documented output
 * (docs/format.md, "Function calling"; test-data/test_render_functions_with_parameters.txt) is the unit test's
 * expectation. Total on any JSON: what is no schema renders as `any`; nesting deeper than MAX_DEPTH as `any`.
 */
import { isRecord } from '../util/guards';

/** Deeper schemas than any real tool's render as `any` (the indentation grows with the depth). */
const MAX_DEPTH = 32;

export interface FunctionTool {
  name: string;
  description: string;
  parameters?: unknown;
}

/** The function tools of a chat request's `tools` ({type: "function", function: {...}}, or the function itself). */
export function functionTools(tools: readonly unknown[] | undefined): FunctionTool[] {
  const out: FunctionTool[] = [];
  for (const tool of tools ?? []) {
    const fn = isRecord(tool) && isRecord(tool.function) ? tool.function : tool;
    if (!isRecord(fn) || typeof fn.name !== 'string') continue;
    if (isRecord(tool) && tool.type !== undefined && tool.type !== 'function') continue;
    const description = typeof fn.description === 'string' ? fn.description : '';
    out.push({ name: fn.name, description, ...(fn.parameters != null ? { parameters: fn.parameters } : {}) });
  }
  return out;
}

/** The developer message's tools section for these functions, exactly as the harmony renderer writes it. */
export function harmonyToolsSection(tools: readonly FunctionTool[]): string {
  const content = ['## functions\n', 'namespace functions {\n'];
  for (const tool of tools) {
    for (const line of lines(tool.description)) content.push(`// ${line}`);
    content.push(
      tool.parameters === undefined
        ? `type ${tool.name} = () => any;\n`
        : `type ${tool.name} = (_: ${typescript(tool.parameters, '', 0)}) => any;\n`,
    );
  }
  content.push('} // namespace functions');
  return ['# Tools', content.join('\n')].join('\n\n');
}

/** Rust's str::lines: split at \n, a trailing \r dropped, no last empty line. */
function lines(text: string): string[] {
  if (text === '') return [];
  const out = text.split('\n').map((line) => line.replace(/\r$/, ''));
  if (text.endsWith('\n')) out.pop();
  return out;
}

const field = (value: unknown, key: string): unknown => (isRecord(value) ? value[key] : undefined);
const text = (value: unknown, key: string): string | undefined => {
  const v = field(value, key);
  return typeof v === 'string' ? v : undefined;
};
const isEnum = (schema: unknown): boolean => {
  const values = field(schema, 'enum');
  return Array.isArray(values) && values.length > 0;
};
/** serde_json's Display: compact JSON. */
const json = (value: unknown): string => JSON.stringify(value) ?? 'null';

/** A default as a comment says it: a plain string quoted; an enum's string bare where `bareEnum` (property level). */
function defaultText(schema: unknown, bareEnum: boolean): string {
  const value = field(schema, 'default');
  if (typeof value === 'string' && !isEnum(schema)) return `default: "${value}"`;
  if (typeof value === 'string' && bareEnum) return `default: ${value}`;
  return `default: ${json(value)}`;
}

/** A type with ` | null` added when the schema says nullable and the type does not already say null. */
function nullable(schema: unknown, type: string): string {
  return field(schema, 'nullable') === true && !type.includes('null') ? `${type} | null` : type;
}

function typescript(schema: unknown, indent: string, depth: number): string {
  if (depth > MAX_DEPTH) return 'any';
  const oneOf = field(schema, 'oneOf');
  if (Array.isArray(oneOf)) return topLevelOneOf(oneOf, indent, depth);
  const type = field(schema, 'type');
  if (Array.isArray(type)) {
    const names = type.filter((t): t is string => typeof t === 'string').map((t) => (t === 'integer' ? 'number' : t));
    if (names.length > 0) return names.join(' | ');
  }
  switch (typeof type === 'string' ? type : undefined) {
    case 'object':
      return objectType(schema, indent, depth);
    case 'string': {
      const values = field(schema, 'enum');
      const names = Array.isArray(values) ? values.filter((v): v is string => typeof v === 'string').map((v) => `"${v}"`) : [];
      return names.length > 0 ? names.join(' | ') : 'string';
    }
    case 'number':
    case 'integer':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'array': {
      const items = field(schema, 'items');
      return items === undefined ? 'Array<any>' : `${typescript(items, indent, depth + 1)}[]`;
    }
    default:
      return 'any';
  }
}

function topLevelOneOf(variants: unknown[], indent: string, depth: number): string {
  let out = '';
  for (const variant of variants) {
    out += `\n${indent} | ${nullable(variant, typescript(variant, `${indent}   `, depth + 1))}`;
    const comments: string[] = [];
    const description = text(variant, 'description');
    if (description !== undefined) comments.push(description);
    if (field(variant, 'default') !== undefined) comments.push(defaultText(variant, false));
    if (comments.length > 0) out += ` // ${comments.join(' ')}`;
  }
  return out;
}

function objectType(schema: unknown, indent: string, depth: number): string {
  const description = text(schema, 'description');
  let out = description === undefined ? '{\n' : `${indent}// ${description}\n{\n`;
  const properties = field(schema, 'properties');
  const requiredList = field(schema, 'required');
  const required = new Set(Array.isArray(requiredList) ? requiredList.filter((r) => typeof r === 'string') : []);
  for (const [key, value] of isRecord(properties) ? Object.entries(properties) : []) {
    out += propertyComments(value, indent);
    const mark = required.has(key) ? '' : '?';
    const oneOf = field(value, 'oneOf');
    if (Array.isArray(oneOf)) {
      out += propertyOneOf(key + mark, value, oneOf, indent, depth);
      continue;
    }
    out += `${indent}${key}${mark}: ${nullable(value, typescript(value, `${indent}    `, depth + 1))},`;
    if (oneOf === undefined && field(value, 'default') !== undefined) out += ` // ${defaultText(value, true)}`;
    out += '\n';
  }
  return `${out}${indent}}`;
}

/** A property's title, description (unless it is a oneOf's, said with its variants) and examples, as comments. */
function propertyComments(value: unknown, indent: string): string {
  let out = '';
  const title = text(value, 'title');
  if (title !== undefined) out += `${indent}// ${title}\n${indent}//\n`;
  const description = text(value, 'description');
  if (field(value, 'oneOf') === undefined && description !== undefined) out += `${indent}// ${description}\n`;
  const examples = field(value, 'examples');
  if (Array.isArray(examples) && examples.length > 0) {
    out += `${indent}// Examples:\n`;
    for (const example of examples) if (typeof example === 'string') out += `${indent}// - "${example}"\n`;
  }
  return out;
}

function propertyOneOf(name: string, value: unknown, variants: unknown[], indent: string, depth: number): string {
  const description = text(value, 'description');
  const above = description !== undefined && text(variants[0], 'description') !== description;
  let out = above ? `${indent}// ${description}\n` : '';
  if (field(value, 'default') !== undefined) out += `${indent}// ${defaultText(value, true)}\n`;
  out += `${indent}${name}:\n`;
  variants.forEach((variant, i) => {
    out += `${indent} | ${nullable(variant, typescript(variant, `${indent}   `, depth + 1))}`;
    const comments: string[] = [];
    const own = text(variant, 'description');
    if (!(i === 0 && above) && own !== undefined && own !== description) comments.push(own);
    if (field(variant, 'default') !== undefined) comments.push(defaultText(variant, true));
    if (comments.length > 0) out += ` // ${comments.join(' ')}`;
    out += '\n';
  });
  return `${out}${indent},\n`;
}
