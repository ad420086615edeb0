// HTTP client for the chat server: streaming /chat over SSE, /feedback, /sessions.
import { createSSEParser } from './sse.js';

/** An error the UI can show. `retryable`: worth a Retry button (network, 429, 5xx, cut stream). */
export class ApiError extends Error {
  constructor(message, code, status = 0, retryable = false) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.status = status;
    this.retryable = retryable;
  }
}

const MESSAGES = {
  NETWORK: "Can't reach the server. Check your connection and try again.",
  STREAM: 'The connection was interrupted before the answer finished.',
  RATE_LIMITED: 'Too many questions right now. Please wait a moment and try again.',
  INDEX_EMPTY: "The book hasn't been indexed yet. Please try again later.",
  UNAVAILABLE: 'The assistant is temporarily unavailable. Please try again shortly.',
  PAYLOAD_TOO_LARGE: 'That passage is too long. Select a shorter passage and ask again.',
  INTERNAL: 'Something went wrong on the server. Please try again.',
};

// HTTP status for each documented error code (used for errors that arrive inside the stream).
const STATUS = { VALIDATION_ERROR: 400, NOT_FOUND: 404, PAYLOAD_TOO_LARGE: 413, RATE_LIMITED: 429, INDEX_EMPTY: 503, STORE_UNAVAILABLE: 503 };

/** Map an error payload `{error, code, details}` and HTTP status (0: unknown) to an ApiError. */
export function toApiError(status, body = {}, retryAfter = null) {
  status = status || STATUS[body.code] || 500;
  const code = body.code || (status === 429 ? 'RATE_LIMITED' : status >= 500 ? 'INTERNAL' : 'ERROR');
  let msg =
    MESSAGES[code] ||
    (status === 503 ? MESSAGES.UNAVAILABLE : status >= 500 ? MESSAGES.INTERNAL : body.error || `Request failed (${status}).`);
  if (status === 429 && +retryAfter > 0) msg = `Too many questions right now. Try again in ${+retryAfter} s.`;
  return new ApiError(msg, code, status, status === 429 || status >= 500);
}

const netError = () => new ApiError(MESSAGES.NETWORK, 'NETWORK', 0, true);

async function request(url, opts) {
  let res;
  try {
    res = await fetch(url, opts);
  } catch (e) {
    if (e.name === 'AbortError') throw e;
    throw netError();
  }
  if (!res.ok) {
    const body = await res.json().catch(() => ({}));
    throw toApiError(res.status, body, res.headers.get('retry-after'));
  }
  return res;
}

const json = (body) => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify(body),
});

/**
 * POST /chat, streaming. Resolves with the ChatResponse (the `done` payload); falls back to a
 * plain JSON response if the server does not stream. Rejects with ApiError, or with the
 * AbortError of `signal` when the user stops.
 */
export async function chat(api, body, { signal, onMeta, onToken } = {}) {
  const opts = json(body);
  opts.headers.Accept = 'text/event-stream';
  opts.signal = signal;
  const res = await request(api + '/chat', opts);
  if (!(res.headers.get('content-type') || '').includes('text/event-stream') || !res.body) {
    return res.json();
  }
  let result = null;
  let failure = null;
  const parser = createSSEParser(({ event, data }) => {
    let d;
    try {
      d = JSON.parse(data);
    } catch {
      return console.warn('[textbook-chat] ignored a malformed event', event);
    }
    if (event === 'token') onToken?.(d.text || '');
    else if (event === 'meta') onMeta?.(d);
    else if (event === 'done') result = d;
    else if (event === 'error') failure = toApiError(0, d);
  });
  const reader = res.body.getReader();
  try {
    while (!result && !failure) {
      const { value, done } = await reader.read();
      if (done) break;
      parser.feed(value);
    }
    parser.end();
  } catch (e) {
    if (signal?.aborted) throw e;
    throw new ApiError(MESSAGES.STREAM, 'STREAM', 0, true);
  } finally {
    reader.cancel().catch(() => {});
  }
  if (failure) throw failure;
  if (!result) throw new ApiError(MESSAGES.STREAM, 'STREAM', 0, true);
  return result;
}

/** POST /feedback. Resolves true on success. */
export function feedback(api, messageId, rating) {
  return request(api + '/feedback', json({ message_id: messageId, rating })).then(
    () => true,
    (e) => (console.warn('[textbook-chat] feedback failed:', e.message), false)
  );
}

/** DELETE /sessions/<id>, best effort ("New chat" must work offline too). */
export function deleteSession(api, id) {
  return fetch(`${api}/sessions/${encodeURIComponent(id)}`, { method: 'DELETE' }).catch(() => {});
}
