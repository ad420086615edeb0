import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const plugin = require('../docusaurus-plugin/index.js');

const context = { siteConfig: { projectName: 'signals-book' } };

test('injects one deferred script tag at the end of <body>', () => {
  const p = plugin(context, { apiUrl: 'http://localhost:8000', bookId: 'my-book' });
  assert.equal(p.name, 'textbook-chat');
  assert.deepEqual(p.injectHtmlTags(), {
    postBodyTags: [
      {
        tagName: 'script',
        attributes: {
          src: 'http://localhost:8000/widget.js',
          defer: true,
          'data-api': 'http://localhost:8000',
          'data-book-id': 'my-book',
        },
      },
    ],
  });
});

test('every option maps to its data-* attribute', () => {
  const { attributes } = plugin(context, {
    apiUrl: 'https://chat.example.org/',
    scriptUrl: 'https://cdn.example.org/tc/widget.js',
    bookId: 'b',
    title: 'Ask the book',
    position: 'bottom-left',
    accent: '#0a7',
    selectionMode: 'exclusive',
    open: true,
    shortcut: 'ctrl+k',
  }).injectHtmlTags().postBodyTags[0];
  assert.deepEqual(attributes, {
    src: 'https://cdn.example.org/tc/widget.js',
    defer: true,
    'data-api': 'https://chat.example.org',
    'data-book-id': 'b',
    'data-title': 'Ask the book',
    'data-position': 'bottom-left',
    'data-accent': '#0a7',
    'data-selection-mode': 'exclusive',
    'data-open': 'true',
    'data-shortcut': 'ctrl+k',
  });
});

test('bookId defaults to the site projectName', () => {
  const tag = plugin(context, { apiUrl: 'http://localhost:8000' }).injectHtmlTags().postBodyTags[0];
  assert.equal(tag.attributes['data-book-id'], 'signals-book');
  const bare = plugin({ siteConfig: {} }, { apiUrl: 'http://localhost:8000' }).injectHtmlTags().postBodyTags[0];
  assert.equal(bare.attributes['data-book-id'], undefined);
});

test('validation: apiUrl required and http(s); enums, types and unknown keys checked', () => {
  const bad = [
    [undefined, /apiUrl is required/],
    [{}, /apiUrl is required/],
    [{ apiUrl: 'localhost:8000' }, /apiUrl must be an http\(s\) URL|absolute URL/],
    [{ apiUrl: 'not a url' }, /apiUrl must be an absolute URL/],
    [{ apiUrl: 'javascript:alert(1)' }, /http\(s\)/],
    [{ apiUrl: 'http://x', position: 'top' }, /position must be one of/],
    [{ apiUrl: 'http://x', selectionMode: 'book' }, /selectionMode must be one of/],
    [{ apiUrl: 'http://x', open: 'yes' }, /open must be a boolean/],
    [{ apiUrl: 'http://x', bookId: '' }, /bookId must be a non-empty string/],
    [{ apiUrl: 'http://x', apiURL: 'typo' }, /unknown option "apiURL"/],
  ];
  for (const [options, message] of bad) {
    assert.throws(() => plugin(context, options), message, JSON.stringify(options));
  }
});

test('validateOptions (called by Docusaurus) returns normalised options and accepts the id', () => {
  const out = plugin.validateOptions({ options: { id: 'default', apiUrl: 'http://localhost:8000/' }, validate: () => {} });
  assert.deepEqual(out, { id: 'default', apiUrl: 'http://localhost:8000', scriptUrl: 'http://localhost:8000/widget.js' });
  assert.throws(() => plugin.validateOptions({ options: {} }), /apiUrl is required/);
});
