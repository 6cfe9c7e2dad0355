/**
 * Which texts hold conversations, as the editor finds them: a JSON document (or selection) that is an object with
 * a "messages" array or an array of messages, and a JSON Lines dataset whose first line is such an object. Total
 * and linear; a text that only looks like one (a "messages" array with a bad role) gives its problem, so the
 * status bar can say why it counts the text as text.
 */
import { isRecord } from '../util/guards';
import { ConversationError, parseConversation, type Conversation } from './conversation';
import { MAX_LINE_CHARS } from './count';

export type JsonConversation = { conversation: Conversation } | { problem: string };

/** The conversation in a JSON text, its problem when it looks like one but is not valid, else undefined. */
export function conversationInJson(text: string): JsonConversation | undefined {
  if (text.length > MAX_LINE_CHARS || !/^\s*[[{]/.test(text)) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!looksLikeConversation(value)) return undefined;
  try {
    return { conversation: parseConversation(value) };
  } catch (error) {
    if (error instanceof ConversationError) return { problem: error.message };
    throw error;
  }
}

/** An object with a "messages" array, or a non-empty array whose first item has a "role". */
function looksLikeConversation(value: unknown): boolean {
  if (Array.isArray(value)) return isRecord(value[0]) && typeof value[0].role === 'string';
  return isRecord(value) && Array.isArray(value.messages);
}

/** How far into a JSON Lines text its first conversation line is looked for. */
const SNIFF_CHARS = 1_000_000;

/** Whether a JSON Lines text is a conversation dataset: its first non-blank line is an object with a "messages" array. */
export function isConversationDataset(text: string): boolean {
  const start = text.search(/\S/);
  if (start < 0 || start > SNIFF_CHARS || text[start] !== '{') return false;
  // The "messages" key must appear on the first line, early enough to find without parsing a huge line.
  let end = text.indexOf('\n', start);
  if (end < 0) end = text.length;
  const head = text.slice(start, Math.min(end, start + SNIFF_CHARS));
  if (!head.includes('"messages"')) return false;
  if (end - start > SNIFF_CHARS) return true;
  try {
    const value: unknown = JSON.parse(head);
    return isRecord(value) && Array.isArray(value.messages);
  } catch {
    return false;
  }
}
