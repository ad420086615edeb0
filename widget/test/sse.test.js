import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createSSEParser } from '../src/sse.js';

// A stream like the server's: keep-alive comments, meta, tokens with multi-byte characters
// (é: 2 bytes, 中: 3 bytes, 🙂: 4 bytes), multi-line data, CRLF and CR line endings,
// an event without data (ignored), an unnamed event, done.
const STREAM = [
  ': keep-alive\n\n',
  'event: meta\ndata: {"query_id":"q1","session_id":"s1","sources":[]}\n\n',
  'event: token\r\ndata: {"text":"Caf\u00e9 "}\r\n\r\n',
  'event: token\rdata: {"text":"\u4e2d\u6587 "}\r\r',
  'event: token\ndata: {"text":"\ud83d\ude42 [1]"}\n\n',
  ':another comment\nevent: token\ndata:{"text":"no space"}\n\n',
  'event: nothing\n\n',
  'data: line one\ndata: line two\ndata\n\n',
  'event: done\ndata: {"status":"completed","answer":"Caf\u00e9 \u4e2d\u6587 \ud83d\ude42 [1]"}\n\n',
].join('');

const BYTES = new TextEncoder().encode(STREAM);

function parseChunks(chunks) {
  const events = [];
  const p = createSSEParser((e) => events.push(e));
  for (const c of chunks) p.feed(c);
  p.end();
  return events;
}

const EXPECTED = [
  { event: 'meta', data: '{"query_id":"q1","session_id":"s1","sources":[]}' },
  { event: 'token', data: '{"text":"Caf\u00e9 "}' },
  { event: 'token', data: '{"text":"\u4e2d\u6587 "}' },
  { event: 'token', data: '{"text":"\ud83d\ude42 [1]"}' },
  { event: 'token', data: '{"text":"no space"}' },
  { event: 'message', data: 'line one\nline two\n' },
  { event: 'done', data: '{"status":"completed","answer":"Caf\u00e9 \u4e2d\u6587 \ud83d\ude42 [1]"}' },
];

test('parses a whole stream in one chunk', () => {
  assert.deepEqual(parseChunks([BYTES]), EXPECTED);
});

test('every line-ending style gives the same events, and multi-byte characters survive', () => {
  const lf = 'event: token\ndata: {"text":"Caf\u00e9 \u4e2d\u6587 \ud83d\ude42"}\n\n: comment\n\nevent: done\ndata: {}\n\n';
  for (const ending of ['\n', '\r\n', '\r']) {
    const events = parseChunks([new TextEncoder().encode(lf.replaceAll('\n', ending))]);
    assert.deepEqual(events, [
      { event: 'token', data: '{"text":"Caf\u00e9 \u4e2d\u6587 \ud83d\ude42"}' },
      { event: 'done', data: '{}' },
    ], `line endings ${JSON.stringify(ending)}`);
    assert.equal(JSON.parse(events[0].data).text, 'Caf\u00e9 \u4e2d\u6587 \ud83d\ude42');
  }
});

test('identical events when split into two chunks at every byte offset', () => {
  for (let i = 0; i <= BYTES.length; i++) {
    const events = parseChunks([BYTES.subarray(0, i), BYTES.subarray(i)]);
    assert.deepEqual(events, EXPECTED, `split at byte ${i}`);
  }
});

test('identical events when split into three chunks at every pair of offsets', () => {
  // Every (i, j) pair: catches state carried across two boundaries (e.g. CR | LF, 4-byte emoji).
  for (let i = 0; i <= BYTES.length; i += 1) {
    for (let j = i; j <= BYTES.length; j += 7) {
      const events = parseChunks([BYTES.subarray(0, i), BYTES.subarray(i, j), BYTES.subarray(j)]);
      assert.deepEqual(events, EXPECTED, `split at ${i}, ${j}`);
    }
  }
});

test('identical events when fed one byte at a time', () => {
  const chunks = Array.from(BYTES, (b) => Uint8Array.of(b));
  assert.deepEqual(parseChunks(chunks), EXPECTED);
});

test('empty chunks change nothing', () => {
  const chunks = [];
  for (const b of BYTES) chunks.push(new Uint8Array(0), Uint8Array.of(b));
  assert.deepEqual(parseChunks(chunks), EXPECTED);
});

test('CRLF split between chunks is one line ending, not two', () => {
  const bytes = new TextEncoder().encode('event: token\r\ndata: x\r\n\r\n');
  for (let i = 0; i <= bytes.length; i++) {
    const events = parseChunks([bytes.subarray(0, i), bytes.subarray(i)]);
    assert.deepEqual(events, [{ event: 'token', data: 'x' }], `split at ${i}`);
  }
});

test('a leading BOM is dropped and an unterminated last event is discarded', () => {
  const bytes = new TextEncoder().encode('\ufeffevent: a\ndata: 1\n\nevent: b\ndata: 2\n');
  assert.deepEqual(parseChunks([bytes]), [{ event: 'a', data: '1' }]);
});

test('fields: no colon means empty value; only one leading space is stripped', () => {
  const bytes = new TextEncoder().encode('data\ndata:  two spaces\nunknown: x\n\n');
  assert.deepEqual(parseChunks([bytes]), [{ event: 'message', data: '\n two spaces' }]);
});
