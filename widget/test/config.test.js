import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readConfig, parseShortcut, describeShortcut, validShortcut, DEFAULTS } from '../src/config.js';

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
      siteUrl: 'https://books.example.org/ros/',
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
    siteUrl: 'https://books.example.org/ros/',
    selection: 'on',
    contentSelector: '',
  });
});

test('"Ask about this" turned off, and the page\'s main content named', () => {
  const cfg = readConfig({ selection: 'off', contentSelector: ' .theme-doc-markdown ' }, '', PAGE);
  assert.equal(cfg.selection, 'off');
  assert.equal(cfg.contentSelector, '.theme-doc-markdown');
  assert.equal(readConfig({ selection: 'maybe' }, '', PAGE).selection, 'on');
});

test('invalid values fall back to defaults', () => {
  const cfg = readConfig({ position: 'top-left', selectionMode: 'all', title: '  ', open: 'false' }, '', PAGE);
  assert.equal(cfg.position, 'bottom-right');
  assert.equal(cfg.selectionMode, 'combined');
  assert.equal(cfg.title, ''); // the page's language decides (i18n.js)
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

test('invalid attributes warn once each and fall back', () => {
  const warnings = [];
  const cfg = readConfig({ shortcut: 'ctrl+shift', position: 'middle', selectionMode: 'combined' }, '', PAGE, (m) => warnings.push(m));
  assert.equal(cfg.shortcut, 'mod+/');
  assert.equal(cfg.position, 'bottom-right');
  assert.equal(warnings.length, 2);
  assert.match(warnings[0], /data-position="middle" is not valid/);
  assert.match(warnings[1], /data-shortcut="ctrl\+shift" is not valid/);
});

test('valid shortcuts', () => {
  for (const s of ['mod+/', 'ctrl+shift+k', 'alt+c', '/', 'none', 'f2', 'meta+k']) assert.ok(validShortcut(s), s);
  for (const s of ['ctrl+', 'ctrl+shift', 'hyper+k', 'ctrl+none', 'kk']) assert.ok(!validShortcut(s), s);
});

test('the shortcut as shown in the tooltip and in aria-keyshortcuts', () => {
  assert.deepEqual(describeShortcut('mod+/'), { label: 'Ctrl+/', aria: 'Control+/' });
  assert.deepEqual(describeShortcut('mod+/', true), { label: '⌘/', aria: 'Meta+/' });
  assert.deepEqual(describeShortcut('ctrl+shift+k'), { label: 'Ctrl+Shift+K', aria: 'Control+Shift+K' });
  assert.equal(describeShortcut('none'), null);
});
