/** The service's specification (4.2): the most characters one tokenize request may carry. Client and server both keep it. */
export const MAX_TEXT_CHARS = 50_000;
