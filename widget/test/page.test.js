import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pageContext } from '../src/page.js';

// a document with the given meta tags and <html lang>
const doc = (metas, lang = '') => ({
  documentElement: { lang },
  querySelector(selector) {
    const name = /name="([^"]+)"/.exec(selector)[1];
    return name in metas ? { getAttribute: () => metas[name] } : null;
  },
});

test('locale and docs version from the Docusaurus meta tags', () => {
  assert.deepEqual(pageContext(doc({ docusaurus_locale: 'ur', docusaurus_version: 'current' }, 'ur-PK')), {
    locale: 'ur',
    docsVersion: 'current',
  });
});

test('without them: <html lang>, and nothing when the page says nothing', () => {
  assert.deepEqual(pageContext(doc({}, 'en-US')), { locale: 'en-US' });
  assert.deepEqual(pageContext(doc({})), {});
});
