import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createStore, storageKey } from '../src/store.js';

function memoryStorage() {
  const data = new Map();
  return {
    data,
    getItem: (k) => (data.has(k) ? data.get(k) : null),
    setItem: (k, v) => data.set(k, String(v)),
    removeItem: (k) => data.delete(k),
  };
}

test('key is per site origin and book', () => {
  assert.equal(storageKey('https://a.org', 'book-1'), 'textbook-chat:v1:https://a.org:book-1');
  assert.notEqual(storageKey('https://a.org', 'x'), storageKey('https://b.org', 'x'));
});

test('save, load and clear round-trip', () => {
  const mem = memoryStorage();
  const store = createStore('k', () => mem);
  assert.deepEqual(store.load(), {});
  store.save({ sessionId: 's1', open: true, messages: [{ role: 'user', text: 'hi' }] });
  assert.deepEqual(store.load(), { sessionId: 's1', open: true, messages: [{ role: 'user', text: 'hi' }] });
  store.clear();
  assert.deepEqual(store.load(), {});
});

test('keeps only the last 40 messages', () => {
  const mem = memoryStorage();
  const store = createStore('k', () => mem);
  store.save({ messages: Array.from({ length: 55 }, (_, i) => ({ role: 'user', text: String(i) })) });
  const { messages } = store.load();
  assert.equal(messages.length, 40);
  assert.equal(messages[0].text, '15');
});

test('never throws: blocked storage, full storage, corrupt data', () => {
  const warn = console.warn;
  console.warn = () => {};
  try {
    const blocked = createStore('k', () => {
      throw new DOMException('denied', 'SecurityError');
    });
    assert.deepEqual(blocked.load(), {});
    blocked.save({ messages: [] });
    blocked.clear();

    const full = createStore('k', () => ({
      getItem: () => 'not json{',
      setItem: () => {
        throw new DOMException('full', 'QuotaExceededError');
      },
      removeItem: () => {
        throw new Error('nope');
      },
    }));
    assert.deepEqual(full.load(), {});
    full.save({ messages: [{ role: 'user', text: 'x' }] });
    full.clear();

    assert.deepEqual(createStore('k', () => ({ getItem: () => '42' })).load(), {});
    assert.deepEqual(createStore('k', () => undefined).load(), {});
  } finally {
    console.warn = warn;
  }
});
