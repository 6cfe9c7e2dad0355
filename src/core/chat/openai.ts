/**
 * The message framing OpenAI documents for its chat models, not a rendering: the cookbook's
 * num_tokens_from_messages ("How to count tokens with tiktoken",
 * https://cookbook.openai.com/examples/how_to_count_tokens_with_tiktoken): every value of a message (role,
 * content, name) encoded on its own, plus 3 tokens per message, 1 per name and 3 that prime the reply.
 * OpenAI says the count may be approximate for newer models; it is shown labelled as this framing.
 */
import type { Conversation } from './conversation';
import { messageText } from './conversation';
import type { Framed } from './conversation';

const PER_MESSAGE = 3;
const PER_NAME = 1;
const REPLY_PRIMING = 3;

export const OPENAI_FRAMING_LABEL = 'OpenAI framing (cookbook: 3 tokens per message, 1 per name, 3 for the reply)';

export function frameOpenAI(conversation: Conversation): Framed {
  const pieces: string[] = [];
  let extra = REPLY_PRIMING;
  for (const message of conversation.messages) {
    extra += PER_MESSAGE;
    pieces.push(message.role, ...messageText(message));
    if (message.name !== undefined) {
      pieces.push(message.name);
      extra += PER_NAME;
    }
  }
  return { pieces, extra };
}
