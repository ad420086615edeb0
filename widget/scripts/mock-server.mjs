// Development server for trying the widget without the Python server:
//   npm run build && npm run demo        → http://127.0.0.1:8787/demo/
// Serves the demo page (with data-api pointed at itself), the built widget, and a fake chat
// API that follows the server contract (SSE meta/token/done/error, /feedback, /sessions).
// Magic words in the question: "refuse" (a refusal), "slow" (slow stream, try Stop),
// "busy" (HTTP 429), "down" (HTTP 503), "break" (stream cut before done), "ai" (a model
// generator label). A session id "expired" gets 404, like a session the server forgot.
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { dirname, extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomUUID } from 'node:crypto';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const port = Number(process.env.PORT || 8787);
const host = process.env.HOST || '127.0.0.1';
const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8' };

const SOURCES = [
  {
    chunk_id: 'c1',
    content: '## The sampling theorem\n\nThe Nyquist–Shannon sampling theorem says that a signal containing no frequencies above B hertz is completely determined by samples taken at a rate greater than 2B per second.\n\nHalf the sampling rate is called the Nyquist frequency.',
    url: '/demo/#the-sampling-theorem',
    source_file: '01-foundations/01-sampling-and-aliasing.md',
    source_location: 'Foundations › Sampling and Aliasing › The sampling theorem',
    heading: 'The sampling theorem',
    score: 0.82,
    source_type: 'database',
  },
  {
    chunk_id: 'c2',
    content: '## Aliasing\n\nWhen a signal contains frequencies above the Nyquist frequency, they do not disappear: they fold back and appear as lower frequencies.\n\nMore.',
    url: '/demo/#aliasing',
    source_file: '01-foundations/01-sampling-and-aliasing.md',
    source_location: 'Foundations › Sampling and Aliasing › Aliasing',
    heading: 'Aliasing',
    score: 0.74,
    source_type: 'database',
  },
];

const ANSWER =
  'A signal must be sampled at **more than twice** its highest frequency [1]. Otherwise the ' +
  'high frequencies *fold back* as lower ones, which is called aliasing [2].\n\n' +
  '- Nyquist frequency: half the sampling rate [1]\n- Fix: an `anti-aliasing` low-pass filter before the converter [2]\n\n' +
  'Unsafe input is shown as text: <img src=x onerror=alert(1)> and [a link](javascript:alert(1)).';
const REFUSAL = 'The book does not cover this. The nearest sections are listed below.';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function cors(req, res) {
  res.setHeader('Access-Control-Allow-Origin', req.headers.origin || '*');
  res.setHeader('Access-Control-Allow-Headers', 'Content-Type, Accept');
  res.setHeader('Access-Control-Allow-Methods', 'GET, POST, DELETE, OPTIONS');
}

function json(res, status, body) {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(body));
}

async function readBody(req) {
  let data = '';
  for await (const chunk of req) data += chunk;
  try {
    return JSON.parse(data || '{}');
  } catch {
    return null;
  }
}

async function chat(req, res) {
  const body = await readBody(req);
  const q = String(body?.question || '').trim();
  if (!q || q.length > 1000) return json(res, 400, { error: 'question must be 1-1000 characters', code: 'VALIDATION_ERROR' });
  if (/busy/i.test(q)) return json(res, 429, { error: 'Too many requests', code: 'RATE_LIMITED' });
  if (/down/i.test(q)) return json(res, 503, { error: 'Vector store unavailable', code: 'STORE_UNAVAILABLE' });
  if (body.session_id === 'expired') return json(res, 404, { error: 'Session not found', code: 'NOT_FOUND' });

  const refused = /refuse/i.test(q);
  const sessionId = body.session_id || randomUUID();
  const queryId = randomUUID();
  let sources = refused ? SOURCES.slice(1) : SOURCES;
  if (body.selected_text) {
    const sel = { chunk_id: 's1', content: body.selected_text, url: '', source_location: 'Selected text', score: 0.9, source_type: 'selected_text' };
    sources = body.selection_mode === 'exclusive' ? [sel] : [sel, ...sources];
  }
  const answer = refused ? REFUSAL : ANSWER;
  const done = {
    query_id: queryId,
    session_id: sessionId,
    query: q,
    status: refused ? 'refused' : 'completed',
    answer,
    sources,
    citations: [],
    confidence: refused ? 0.2 : 0.8,
    timestamp: new Date().toISOString(),
    mode: body.selected_text ? body.selection_mode || 'exclusive' : 'book',
    generator: /ai/i.test(q) ? 'gemini-2.5-flash' : 'extractive',
    assistant_message_id: randomUUID(),
  };

  if (!/text\/event-stream/.test(req.headers.accept || '')) return json(res, 200, done);
  res.writeHead(200, { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache' });
  const send = (event, data) => res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  res.write(': keep-alive\n\n');
  send('meta', { query_id: queryId, session_id: sessionId, sources });
  const delay = /slow/i.test(q) ? 250 : 25;
  const words = answer.split(/(?<=\s)/);
  for (let i = 0; i < words.length; i++) {
    if (res.destroyed) return;
    if (/break/i.test(q) && i === 5) return res.destroy();
    send('token', { text: words[i] });
    await sleep(delay);
  }
  send('done', done);
  res.end();
}

createServer(async (req, res) => {
  cors(req, res);
  const url = new URL(req.url, `http://${req.headers.host}`);
  try {
    if (req.method === 'OPTIONS') return res.writeHead(204).end();
    if (req.method === 'POST' && url.pathname === '/chat') return await chat(req, res);
    if (req.method === 'POST' && url.pathname === '/feedback') {
      const body = await readBody(req);
      if (!body?.message_id || !['up', 'down'].includes(body.rating)) return json(res, 400, { error: 'bad feedback', code: 'VALIDATION_ERROR' });
      console.log('feedback', body);
      return json(res, 201, { ok: true });
    }
    if (req.method === 'POST' && url.pathname === '/sessions') return json(res, 201, { id: randomUUID(), created_at: new Date().toISOString() });
    if (url.pathname.startsWith('/sessions/')) {
      if (req.method === 'DELETE') return res.writeHead(204).end();
      return json(res, 200, { id: url.pathname.slice(10), messages: [] });
    }
    if (url.pathname === '/') return res.writeHead(302, { Location: '/demo/' }).end();

    // Static files: /demo/…, /dist/…, and /widget.js like the real server.
    let path = url.pathname === '/widget.js' ? '/dist/widget.js' : url.pathname;
    if (path.endsWith('/')) path += 'index.html';
    const file = normalize(join(root, path));
    if (!file.startsWith(root + '/') || !/^\/(demo|dist)\//.test(path)) return json(res, 404, { error: 'Not found', code: 'NOT_FOUND' });
    let data = await readFile(file);
    if (extname(file) === '.html') data = String(data).replaceAll('http://127.0.0.1:8000', `http://${req.headers.host}`);
    res.writeHead(200, { 'Content-Type': TYPES[extname(file)] || 'application/octet-stream' });
    res.end(data);
  } catch (e) {
    if (e.code === 'ENOENT') return json(res, 404, { error: 'Not found (run npm run build first?)', code: 'NOT_FOUND' });
    console.error(e);
    if (!res.headersSent) json(res, 500, { error: 'Internal error', code: 'INTERNAL' });
  }
}).listen(port, host, () => console.log(`mock server: http://${host}:${port}/demo/`));
