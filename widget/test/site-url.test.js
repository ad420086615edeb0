import { test } from 'node:test';
import assert from 'node:assert/strict';
import { onReadersSite, builtFor, readersLink } from '../src/site-url.js';
import plugin from '../docusaurus-plugin/index.js';

const SITE = 'https://books.example.org/robotics/';
const CITED = 'https://books.example.org/robotics/docs/sensors#lidar';

test('a citation under the book\'s own site URL opens on the reader\'s origin and base path', () => {
  assert.equal(onReadersSite(CITED, SITE, 'http://127.0.0.1:3000/robotics/docs/intro'),
    'http://127.0.0.1:3000/robotics/docs/sensors#lidar');
  // a preview deployment that serves the build below a path of its own
  assert.equal(onReadersSite(CITED, SITE, 'https://preview.example.net/pr-12/robotics/docs/intro'),
    'https://preview.example.net/pr-12/robotics/docs/sensors#lidar');
  assert.equal(onReadersSite('https://books.example.org/robotics/docs/a?x=1', 'https://books.example.org/robotics',
    'http://localhost:3000/robotics/'), 'http://localhost:3000/robotics/docs/a?x=1');
});

test('other URLs, the production site itself and a widget without a site URL are left alone', () => {
  assert.equal(onReadersSite('https://other.example.org/robotics/docs/x', SITE, 'http://127.0.0.1:3000/robotics/'),
    'https://other.example.org/robotics/docs/x');
  assert.equal(onReadersSite('https://books.example.org/blog/x', SITE, 'http://127.0.0.1:3000/robotics/'),
    'https://books.example.org/blog/x');
  assert.equal(onReadersSite(CITED, SITE, 'https://books.example.org/robotics/docs/intro'), CITED);
  assert.equal(onReadersSite(CITED, '', 'http://127.0.0.1:3000/robotics/'), CITED);
});

test('the plugin tells the widget the site URL and base path from the Docusaurus config', () => {
  const context = { siteConfig: { url: 'https://books.example.org/', baseUrl: '/robotics/', projectName: 'r' } };
  const tags = plugin(context, { apiUrl: 'http://localhost:8000' }).injectHtmlTags().postBodyTags;
  assert.equal(tags[0].attributes['data-site-url'], 'https://books.example.org/robotics/');
});

test('a translation\'s build tells the site\'s base, not its own', () => {
  const context = { siteConfig: { url: 'https://books.example.org', baseUrl: '/robotics/ur/' },
    i18n: { currentLocale: 'ur', defaultLocale: 'en' } };
  const tags = plugin(context, { apiUrl: 'http://localhost:8000' }).injectHtmlTags().postBodyTags;
  assert.equal(tags[0].attributes['data-site-url'], 'https://books.example.org/robotics/');
});

// a document with the canonical link Docusaurus writes
const page = (canonical) => ({
  querySelector: (q) => (q === 'link[rel=canonical]' && canonical ? { href: canonical } : null),
});

test('without data-site-url, the site comes from the page\'s canonical link', () => {
  const doc = page('https://books.example.org/robotics/docs/intro');
  assert.deepEqual(builtFor(doc, 'http://localhost:3000/robotics/docs/intro/'), ['https://books.example.org/', '/']);
  assert.deepEqual(builtFor(doc, 'https://preview.example.net/pr-12/robotics/docs/intro'),
    ['https://books.example.org/', '/pr-12/']);
  assert.deepEqual(builtFor(page(null), 'http://localhost:3000/docs/intro'), []);
  const link = readersLink('', doc, 'https://preview.example.net/pr-12/robotics/docs/intro');
  assert.equal(link(CITED), 'https://preview.example.net/pr-12/robotics/docs/sensors#lidar');
  assert.equal(link('https://other.example.org/x'), 'https://other.example.org/x');
  // data-site-url, where given, decides
  assert.equal(readersLink(SITE, page(null), 'http://127.0.0.1:3000/robotics/docs/intro')(CITED),
    'http://127.0.0.1:3000/robotics/docs/sensors#lidar');
  // the production site itself: links stay as they are
  assert.equal(readersLink('', doc, 'https://books.example.org/robotics/docs/intro')(CITED), CITED);
});
