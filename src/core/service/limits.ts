/** The service's specification (4.2): the most characters one tokenize request may carry. Client and server both keep it. */
export const MAX_TEXT_CHARS = 50_000;
/** The deepest nesting of an answer the client reads: the service's are a few levels deep; a million would overflow every later walk. */
export const MAX_ANSWER_DEPTH = 256;
