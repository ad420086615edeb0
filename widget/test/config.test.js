import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readConfig, parseShortcut, DEFAULTS } from '../src/config.js';

const PAGE = 'https://book.example.org/docs/intro';

test('defaults: API is the origin the script came from', () => {
  assert.deepEqual(readConfig({}, 'https://chat.example.org/widget.js?v=1', PAGE), {
    ...DEFAULTS,
    api: 'https://chat.example.org',
  });
});

test('no script src (inline or injected): API falls back to the page origin', () => {
  assert.equal(readConfig({}, '', PAGE).api, 'https://book.example.org');
});

test('data-* attributes are read, trimmed and validated', () => {
  const cfg = readConfig(
    {
      api: 'http://127.0.0.1:8000/',
      title: ' Ask ROS ',
      bookId: 'ros-book',
      position: 'bottom-left',
      accent: '#ff6600',
      selectionMode: 'exclusive',
      open: '',
      shortcut: 'ctrl+k',
    },
    'https://cdn.example/widget.js',
    PAGE
  );
  assert.deepEqual(cfg, {
    api: 'http://127.0.0.1:8000',
    title: 'Ask ROS',
    bookId: 'ros-book',
    position: 'bottom-left',
    accent: '#ff6600',
    selectionMode: 'exclusive',
    open: true,
    shortcut: 'ctrl+k',
  });
});

test('invalid values fall back to defaults', () => {
  const cfg = readConfig({ position: 'top-left', selectionMode: 'all', title: '  ', open: 'false' }, '', PAGE);
  assert.equal(cfg.position, 'bottom-right');
  assert.equal(cfg.selectionMode, 'combined');
  assert.equal(cfg.title, 'Ask the textbook');
  assert.equal(cfg.open, false);
  for (const v of ['0', 'no', 'off', 'FALSE']) assert.equal(readConfig({ open: v }, '', PAGE).open, false, v);
  assert.equal(readConfig({ open: 'true' }, '', PAGE).open, true);
});

test('relative data-api resolves against the page', () => {
  assert.equal(readConfig({ api: '/chat-api/' }, '', PAGE).api, 'https://book.example.org/chat-api');
});

const key = (key, mods = {}) => ({ key, ctrlKey: false, metaKey: false, altKey: false, shiftKey: false, ...mods });

test('shortcut "mod+/" matches Ctrl+/ and ⌘+/, also with Shift', () => {
  const m = parseShortcut('mod+/');
  assert.ok(m(key('/', { ctrlKey: true })));
  assert.ok(m(key('/', { metaKey: true })));
  assert.ok(m(key('/', { ctrlKey: true, shiftKey: true })));
  assert.ok(!m(key('/')));
  assert.ok(!m(key('/', { ctrlKey: true, altKey: true })));
  assert.ok(!m(key('k', { ctrlKey: true })));
});

test('shortcut with explicit modifiers', () => {
  const m = parseShortcut('Ctrl+Shift+K');
  assert.ok(m(key('K', { ctrlKey: true, shiftKey: true })));
  assert.ok(!m(key('k', { ctrlKey: true })));
  assert.ok(!m(key('k', { metaKey: true, shiftKey: true })));
  assert.ok(parseShortcut('alt+c')(key('c', { altKey: true })));
  assert.ok(parseShortcut('/')(key('/')));
  assert.ok(!parseShortcut('/')(key('/', { ctrlKey: true })));
});

test('shortcut "none" disables it', () => {
  assert.equal(parseShortcut('none'), null);
});
