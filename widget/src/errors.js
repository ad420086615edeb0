// What the reader is told, by error code or HTTP status, in English: the API client's messages
// and the English table of panel-strings.js (where other languages translate them).
import { UNAVAILABLE } from './i18n.js';

export const ERROR_MESSAGES = {
  NETWORK: "Can't reach the server. Check your connection.",
  ORIGIN: "This site isn't allowed to use the chat server yet.",
  STREAM: 'The connection dropped before the answer finished.',
  INDEX_EMPTY: "The book hasn't been indexed yet.",
  413: 'That passage is too long. Select a shorter one.',
  429: 'Too many questions right now. Wait a moment.',
  500: 'Something went wrong on the server.',
  503: UNAVAILABLE,
};
