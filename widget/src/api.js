// HTTP client for the chat server: streaming /chat over SSE, /feedback, /sessions.
import { createSSEParser } from './sse.js';
import { ERROR_MESSAGES } from './errors.js';

/**
 * An Error the UI can show: {message, code, status, retryable}. Retryable (worth a Retry
 * button): network failures, cut streams, 429 and 5xx. `status` 0 means an `error` event
 * inside the stream, where only the code tells: validation-type errors are final.
 */
export function apiError(status, body = {}) {
  const code = body.code || 'ERROR';
  const retryable = status ? status === 429 || status >= 500 : !/VALIDATION|NOT_FOUND|TOO_LARGE|ORIGIN/.test(code);
  // other 4xx errors show the server's own `error` text (e.g. a validation message)
  const message = ERROR_MESSAGES[code] || ERROR_MESSAGES[status] || (retryable ? ERROR_MESSAGES[500] : body.error || `Error ${status}.`);
  return Object.assign(new Error(message), { code, status, retryable });
}

const failure = (code) => apiError(0, { code });

let told = false;

/**
 * A request that failed without a response: the network, or CORS? A no-cors request to the
 * server's /health succeeds whenever the server answers at all, so if it does, the server is
 * up and refused this page's origin. The console says how to fix it, once.
 */
export async function whyFailed(api, origin = globalThis.location?.origin) {
  try {
    await fetch(api + '/health', { mode: 'no-cors', cache: 'no-store' });
  } catch {
    return failure('NETWORK');
  }
  if (!told) console.error(`[textbook-chat] ${api} answers but refuses requests from ${origin}: add ${origin} to ALLOWED_ORIGINS on the chat server.`);
  told = true;
  return failure('ORIGIN');
}

async function request(url, opts, api) {
  let res;
  try {
    res = await fetch(url, opts);
  } catch (e) {
    if (e.name === 'AbortError') throw e;
    throw api ? await whyFailed(api) : failure('NETWORK');
  }
  if (!res.ok) {
    const body = await res.json().catch(() => ({}));
    throw apiError(res.status, body);
  }
  return res;
}

const json = (body, secret) => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/json', ...bearer(secret) },
  body: JSON.stringify(body),
});

/** The header that shows the server this conversation is ours (its `session_secret`). */
const bearer = (secret) => (secret ? { Authorization: `Bearer ${secret}` } : {});

/**
 * POST /chat, streaming. Resolves with the ChatResponse (the `done` payload). Rejects with an
 * apiError, or with the AbortError of `signal` when the user stops.
 */
export async function chat(api, body, { signal, onMeta, onToken, secret } = {}) {
  const opts = json(body, secret);
  opts.headers.Accept = 'text/event-stream';
  opts.signal = signal;
  const res = await request(api + '/chat', opts, api);
  let result = null;
  let error = null;
  const parser = createSSEParser(({ event, data }) => {
    let d;
    try {
      d = JSON.parse(data);
    } catch {
      return console.warn('[textbook-chat] bad event:', event);
    }
    if (event === 'token') onToken?.(d.text || '');
    else if (event === 'meta') onMeta?.(d);
    else if (event === 'done') result = d;
    else if (event === 'error') error = apiError(0, d);
  });
  const reader = res.body.getReader();
  try {
    while (!result && !error) {
      const { value, done } = await reader.read();
      if (done) break;
      parser.feed(value);
    }
    parser.end();
  } catch (e) {
    if (signal?.aborted) throw e;
    throw failure('STREAM');
  } finally {
    reader.cancel().catch(() => {});
  }
  if (error) throw error;
  if (!result) throw failure('STREAM');
  return result;
}

/** POST /feedback. Resolves true on success. */
export function feedback(api, messageId, rating, secret) {
  return request(api + '/feedback', json({ message_id: messageId, rating }, secret)).then(
    () => true,
    (e) => (console.warn('[textbook-chat] feedback failed:', e.message), false)
  );
}

/** DELETE /sessions/<id>, best effort ("New chat" must work offline too). */
export function deleteSession(api, id, secret) {
  return fetch(`${api}/sessions/${encodeURIComponent(id)}`, { method: 'DELETE', headers: bearer(secret) }).catch(() => {});
}

/**
 * POST /sessions/<id>/secret: the secret of a conversation kept from before sessions had
 * secrets. Resolves with it, or null when the server will not give one (then start anew).
 */
export async function claimSession(api, id) {
  try {
    const res = await request(`${api}/sessions/${encodeURIComponent(id)}/secret`, json({}), api);
    return (await res.json()).session_secret || null;
  } catch (e) {
    if (e.status && e.status < 500 && e.status !== 429) return null;
    throw e;
  }
}
