import { test, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { chat, claimSession, feedback, deleteSession, apiError } from '../src/api.js';

const realFetch = globalThis.fetch;
const realWarn = console.warn;
afterEach(() => {
  globalThis.fetch = realFetch;
  console.warn = realWarn;
});

/** A streaming SSE Response whose body arrives in the given byte-sized pieces. */
function sseResponse(text, pieceSizes = [7, 1, 13, 2]) {
  const bytes = new TextEncoder().encode(text);
  let i = 0;
  let k = 0;
  const body = new ReadableStream({
    pull(controller) {
      if (i >= bytes.length) return controller.close();
      const n = pieceSizes[k++ % pieceSizes.length];
      controller.enqueue(bytes.slice(i, i + n));
      i += n;
    },
  });
  return new Response(body, { headers: { 'Content-Type': 'text/event-stream; charset=utf-8' } });
}

const DONE = {
  query_id: 'q1',
  session_id: 's1',
  status: 'completed',
  answer: 'Aliasing é 中 🙂 [1]',
  sources: [{ url: 'https://b/x', content: 'c' }],
  generator: 'extractive',
  assistant_message_id: 'm1',
};
const STREAM =
  ': ping\n\n' +
  'event: meta\ndata: {"query_id":"q1","session_id":"s1","sources":[]}\n\n' +
  'event: token\ndata: {"text":"Aliasing é "}\n\n' +
  ': ping\n\n' +
  'event: token\ndata: {"text":"中 🙂 [1]"}\n\n' +
  `event: done\ndata: ${JSON.stringify(DONE)}\n\n`;

test('chat streams: request shape, meta, tokens in order, resolves with the done payload', async () => {
  let request;
  globalThis.fetch = async (url, opts) => ((request = { url, opts }), sseResponse(STREAM));
  const tokens = [];
  let meta;
  const res = await chat('http://api', { question: 'What is aliasing?' }, { onMeta: (d) => (meta = d), onToken: (t) => tokens.push(t) });
  assert.equal(request.url, 'http://api/chat');
  assert.equal(request.opts.method, 'POST');
  assert.equal(request.opts.headers.Accept, 'text/event-stream');
  assert.equal(request.opts.headers['Content-Type'], 'application/json');
  assert.deepEqual(JSON.parse(request.opts.body), { question: 'What is aliasing?' });
  assert.equal(meta.session_id, 's1');
  assert.deepEqual(tokens, ['Aliasing é ', '中 🙂 [1]']);
  assert.deepEqual(res, DONE);
});

test('chat: an error event rejects; validation errors are final, others retryable', async () => {
  globalThis.fetch = async () => sseResponse('event: error\ndata: {"error":"Store down","code":"STORE_UNAVAILABLE"}\n\n');
  await assert.rejects(chat('http://api', {}), (e) => e.retryable && e.code === 'STORE_UNAVAILABLE');
  globalThis.fetch = async () => sseResponse('event: error\ndata: {"error":"question is required","code":"VALIDATION_ERROR"}\n\n');
  await assert.rejects(chat('http://api', {}), (e) => !e.retryable && e.message === 'question is required');
});

test('chat: a stream that ends without `done` is a retryable error', async () => {
  globalThis.fetch = async () => sseResponse('event: token\ndata: {"text":"Half"}\n\n');
  await assert.rejects(chat('http://api', {}), (e) => e.retryable && e.code === 'STREAM');
});

test('chat: malformed event data is skipped', async () => {
  console.warn = () => {};
  globalThis.fetch = async () => sseResponse(`event: token\ndata: {oops\n\nevent: done\ndata: ${JSON.stringify(DONE)}\n\n`);
  assert.deepEqual(await chat('http://api', {}), DONE);
});

test('chat: HTTP errors map to clear, correctly retryable errors', async () => {
  const cases = [
    [429, { error: 'slow down', code: 'RATE_LIMITED' }, true, /Too many questions/],
    [503, { error: 'x', code: 'INDEX_EMPTY' }, true, /hasn't been indexed/],
    [503, { error: 'x', code: 'STORE_UNAVAILABLE' }, true, /unavailable/],
    [500, { error: 'x', code: 'INTERNAL' }, true, /went wrong/],
    [413, { error: 'x', code: 'PAYLOAD_TOO_LARGE' }, false, /too long/],
    [400, { error: 'question must be 1-1000 characters', code: 'VALIDATION_ERROR' }, false, /^question must be/],
    [404, { error: 'Session not found', code: 'NOT_FOUND' }, false, /^Session not found/],
  ];
  for (const [status, body, retryable, message] of cases) {
    globalThis.fetch = async () => Response.json(body, { status });
    await assert.rejects(chat('http://api', {}), (e) => {
      assert.equal(e.status, status);
      assert.equal(e.code, body.code);
      assert.equal(e.retryable, retryable, `${status} retryable`);
      assert.match(e.message, message);
      return true;
    });
  }
  // A proxy's HTML error page: no JSON body.
  globalThis.fetch = async () => new Response('<html>Bad gateway</html>', { status: 502 });
  await assert.rejects(chat('http://api', {}), (e) => e.retryable && /went wrong/.test(e.message));
});

test('chat: network failure is retryable', async () => {
  globalThis.fetch = async () => {
    throw new TypeError('Failed to fetch');
  };
  await assert.rejects(chat('http://api', {}), (e) => e.retryable && e.code === 'NETWORK');
});

test('chat: aborting rejects with the AbortError (the Stop button)', async () => {
  const ctrl = new AbortController();
  globalThis.fetch = async (_url, { signal }) => {
    const body = new ReadableStream({
      start(c) {
        c.enqueue(new TextEncoder().encode('event: token\ndata: {"text":"a"}\n\n'));
        signal.addEventListener('abort', () => c.error(signal.reason));
      },
    });
    return new Response(body, { headers: { 'Content-Type': 'text/event-stream' } });
  };
  const p = chat('http://api', {}, { signal: ctrl.signal, onToken: () => ctrl.abort() });
  await assert.rejects(p, (e) => e.name === 'AbortError');
});

test('feedback posts message id and rating; failures resolve false', async () => {
  let sent;
  globalThis.fetch = async (url, opts) => ((sent = { url, body: JSON.parse(opts.body) }), new Response('{}'));
  assert.equal(await feedback('http://api', 'm1', 'up'), true);
  assert.deepEqual(sent, { url: 'http://api/feedback', body: { message_id: 'm1', rating: 'up' } });
  console.warn = () => {};
  globalThis.fetch = async () => Response.json({ error: 'nope', code: 'NOT_FOUND' }, { status: 404 });
  assert.equal(await feedback('http://api', 'm1', 'down'), false);
});

test('requests about a conversation carry its secret; a kept one without a secret is claimed', async () => {
  const seen = [];
  globalThis.fetch = async (url, opts) => (seen.push([url, opts.method, opts.headers?.Authorization]),
    url.endsWith('/secret') ? Response.json({ session_secret: 'fresh' }, { status: 201 }) : new Response('{}'));
  await feedback('http://api', 'm1', 'up', 'sec');
  await deleteSession('http://api', 's1', 'sec');
  assert.equal(await claimSession('http://api', 's/1'), 'fresh');
  assert.deepEqual(seen, [['http://api/feedback', 'POST', 'Bearer sec'], ['http://api/sessions/s1', 'DELETE', 'Bearer sec'],
    ['http://api/sessions/s%2F1/secret', 'POST', undefined]]);
  globalThis.fetch = async () => Response.json({ error: 'Unknown session.', code: 'NOT_FOUND' }, { status: 404 });
  assert.equal(await claimSession('http://api', 's1'), null); // claimed by someone else, or gone: start anew
  globalThis.fetch = async () => Response.json({ error: 'down', code: 'DATABASE_UNAVAILABLE' }, { status: 503 });
  await assert.rejects(claimSession('http://api', 's1'), (e) => e.retryable);
});

test('deleteSession is best effort', async () => {
  let seen;
  globalThis.fetch = async (url, opts) => ((seen = [url, opts.method]), new Response(null, { status: 204 }));
  await deleteSession('http://api', 'a/b');
  assert.deepEqual(seen, ['http://api/sessions/a%2Fb', 'DELETE']);
  globalThis.fetch = async () => {
    throw new TypeError('offline');
  };
  await deleteSession('http://api', 'x'); // does not throw
});

test('apiError without a code uses the HTTP status', () => {
  const e = apiError(429, {});
  assert.equal(e.retryable, true);
  assert.match(e.message, /Too many/);
});

test('a refused origin is told apart from a network failure, and the console names the fix once', async () => {
  const errors = [];
  const realError = console.error;
  console.error = (m) => errors.push(m);
  try {
    // /chat fails (CORS) while a no-cors probe of /health gets an (opaque) answer
    globalThis.fetch = async (url, opts) => {
      if (url.endsWith('/health') && opts.mode === 'no-cors') return new Response(null, { status: 200 });
      throw new TypeError('Failed to fetch');
    };
    for (let i = 0; i < 2; i++) {
      await assert.rejects(chat('http://api', {}), (e) => e.code === 'ORIGIN' && !e.retryable && /allowed/.test(e.message));
    }
    assert.equal(errors.length, 1);
    assert.match(errors[0], /ALLOWED_ORIGINS/);
    // the server does not answer at all: a network failure
    globalThis.fetch = async () => {
      throw new TypeError('Failed to fetch');
    };
    await assert.rejects(chat('http://api', {}), (e) => e.code === 'NETWORK' && e.retryable);
  } finally {
    console.error = realError;
  }
});
