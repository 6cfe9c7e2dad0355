/**
 * A request as a JSON document the user edits: a first line naming the endpoint, a comment on how to
 * send it, then the body. Reading it back blanks the comment lines (so error positions stay true) and
 * reports where the JSON breaks. Pure.
 */
import type { Application, Body } from './types';
import { ENGLISH, type Translate } from '../util/locale';

export function requestHeader(app: Application): string {
  return `// Token Lens request: POST ${app.path}`;
}

export function requestText(app: Application, body: Body, t: Translate = ENGLISH.t): string {
  const how = t('{0}. Edit the body, then run “Token Lens: Send Application Request” (or click Send above).', app.title(t));
  return `${requestHeader(app)}\n// ${how}\n${JSON.stringify(body, null, 2)}\n`;
}

export type ParsedRequest = { body: Body } | { error: { message: string; offset: number } };

/** Whole-line // comments are blanked with spaces of the same length, so offsets match the document. */
export function parseRequest(text: string, t: Translate = ENGLISH.t): ParsedRequest {
  const blanked = text.replace(/^[ \t]*\/\/.*$/gm, (line) => ' '.repeat(line.length));
  if (!blanked.trim()) return { error: { message: t('the request is empty: write a JSON object'), offset: 0 } };
  try {
    const value: unknown = JSON.parse(blanked);
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      return { error: { message: t('the request must be a JSON object ({ … })'), offset: blanked.search(/\S/) } };
    return { body: value as Body };
  } catch (error) {
    const message = (error as Error).message;
    const position = /position (\d+)/.exec(message);
    return { error: { message: message.replace(/^JSON\.parse: /, ''), offset: position ? Number(position[1]) : blanked.length } };
  }
}
