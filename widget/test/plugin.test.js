import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

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
    selection: false,
    contentSelector: 'main article',
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
    'data-selection': 'off',
    'data-content-selector': 'main article',
  });
  // "Ask about this" is on unless turned off: no attribute for selection: true
  const on = plugin(context, { apiUrl: 'http://x', selection: true }).injectHtmlTags().postBodyTags[0];
  assert.equal(on.attributes['data-selection'], undefined);
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
    [{ apiUrl: 'http://x', selection: 'off' }, /selection must be a boolean/],
    [{ apiUrl: 'http://x', contentSelector: ' ' }, /contentSelector must be a non-empty string/],
    [{ apiUrl: 'http://x', copyScripts: 'yes' }, /copyScripts must be a boolean/],
    [{ apiUrl: 'http://x', scriptUrl: 'https://cdn.example.org/widget.js', copyScripts: true }, /give one/],
  ];
  for (const [options, message] of bad) {
    assert.throws(() => plugin(context, options), message, JSON.stringify(options));
  }
});

test('validateOptions (called by Docusaurus) returns normalised options and accepts the id', () => {
  const out = plugin.validateOptions({ options: { id: 'default', apiUrl: 'http://localhost:8000/' }, validate: () => {} });
  assert.deepEqual(out, { id: 'default', apiUrl: 'http://localhost:8000', copyScripts: true });
  assert.deepEqual(plugin.normalizeOptions(out), out); // Docusaurus hands the result back to the plugin
  assert.throws(() => plugin.validateOptions({ options: {} }), /apiUrl is required/);
});

// --- docusaurus build: the scripts copied into the site's build ---

const scriptsDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'tc-scripts-'));
  writeFileSync(join(dir, 'widget.js'), '/* loader */');
  writeFileSync(join(dir, 'widget-panel.js'), '/* panel */');
  writeFileSync(join(dir, 'widget-insights.js'), '/* insights */');
  writeFileSync(join(dir, 'widget.js.gz'), 'gz');
  writeFileSync(join(dir, 'notes.txt'), 'not a script');
  return dir;
};
const site = { siteConfig: { url: 'https://books.example.org', baseUrl: '/robotics/', projectName: 'r' }, baseUrl: '/robotics/' };

test('at build, the tag loads widget.js from the site, by a URL that changes with the scripts', async () => {
  const dir = scriptsDir();
  const p = plugin(site, { apiUrl: 'https://chat.example.org' }, { production: true, sources: [join(dir, 'missing'), dir] });
  const { attributes } = p.injectHtmlTags().postBodyTags[0];
  assert.match(attributes.src, /^\/robotics\/textbook-chat\/widget\.js\?v=[0-9a-f]{10}$/);
  assert.equal(attributes['data-api'], 'https://chat.example.org'); // the widget still talks to the chat server
  assert.equal(attributes['data-site-url'], 'https://books.example.org/robotics/');
  assert.equal(attributes['data-book-id'], 'r');

  const outDir = mkdtempSync(join(tmpdir(), 'tc-build-'));
  await p.postBuild({ outDir });
  assert.deepEqual(readdirSync(join(outDir, 'textbook-chat')).sort(),
    ['widget-insights.js', 'widget-panel.js', 'widget.js', 'widget.js.gz']);
  assert.equal(readFileSync(join(outDir, 'textbook-chat', 'widget.js'), 'utf8'), '/* loader */');

  writeFileSync(join(dir, 'widget-panel.js'), '/* a new panel */');
  const again = plugin(site, { apiUrl: 'https://chat.example.org' }, { production: true, sources: [dir] });
  assert.notEqual(again.injectHtmlTags().postBodyTags[0].attributes.src, attributes.src);
});

test('a translation\'s build has its own copy under its base', () => {
  const ur = { ...site, baseUrl: '/robotics/ur/', i18n: { currentLocale: 'ur', defaultLocale: 'en' } };
  const { attributes } = plugin(ur, { apiUrl: 'https://chat.example.org' }, { production: true, sources: [scriptsDir()] })
    .injectHtmlTags().postBodyTags[0];
  assert.match(attributes.src, /^\/robotics\/ur\/textbook-chat\/widget\.js\?v=/);
  assert.equal(attributes['data-site-url'], 'https://books.example.org/robotics/');
});

test('docusaurus start, copyScripts: false and scriptUrl load widget.js from elsewhere and copy nothing', async () => {
  const dir = scriptsDir();
  const cases = [
    [{ apiUrl: 'https://chat.example.org' }, { production: false }, 'https://chat.example.org/widget.js'],
    [{ apiUrl: 'https://chat.example.org', copyScripts: false }, { production: true }, 'https://chat.example.org/widget.js'],
    [{ apiUrl: 'https://chat.example.org', scriptUrl: 'https://cdn.example.org/tc/widget.js' }, { production: true },
      'https://cdn.example.org/tc/widget.js'],
  ];
  for (const [options, env, src] of cases) {
    const p = plugin(site, options, { ...env, sources: [dir] });
    assert.equal(p.injectHtmlTags().postBodyTags[0].attributes.src, src, JSON.stringify(options));
    const outDir = mkdtempSync(join(tmpdir(), 'tc-build-'));
    await p.postBuild({ outDir });
    assert.deepEqual(readdirSync(outDir), []);
  }
});

test('a build without the built scripts stops with a clear message', () => {
  assert.throws(() => plugin(site, { apiUrl: 'https://chat.example.org' }, { production: true, sources: [tmpdir() + '/nope'] }),
    /widget\.js not found .*copyScripts: false/);
});

test('the package: a CommonJS module whose files list carries the scripts, with a README and a license', () => {
  const dir = new URL('../docusaurus-plugin/', import.meta.url);
  const pkg = JSON.parse(readFileSync(new URL('package.json', dir), 'utf8'));
  assert.equal(pkg.name, 'docusaurus-plugin-textbook-chat');
  assert.match(pkg.version, /^\d+\.\d+\.\d+$/);
  assert.equal(pkg.type, 'commonjs');
  assert.equal(pkg.main, 'index.js');
  assert.deepEqual(pkg.files, ['index.js', 'dist/']);
  assert.equal(pkg.license, 'MIT');
  assert.match(readFileSync(new URL('LICENSE', dir), 'utf8'), /MIT License/);
  assert.match(readFileSync(new URL('README.md', dir), 'utf8'), /npm install docusaurus-plugin-textbook-chat/);
});
