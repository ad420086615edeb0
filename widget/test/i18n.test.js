import { test } from 'node:test';
import assert from 'node:assert/strict';
import { strings as loaderStrings, isRtl, baseLang } from '../src/i18n.js';
import { PANEL_STRINGS } from '../src/panel-strings.js';
import { UR } from '../src/strings-ur.js';
import ES from '../src/strings-es.js';
import JA from '../src/strings-ja.js';
import ZH from '../src/strings-zh.js';
import { LANGUAGE_PARTS } from '../src/i18n.js';

// the panel's words as the panel reads them: the loader's, its own and the Urdu part's (app.js, chat-panel.js)
const strings = (lang, extra) => loaderStrings(lang, extra, { ...PANEL_STRINGS, ur: UR });

test("Spanish, Japanese, Chinese and Urdu have every panel word, and the quiz's and the tutor's too", () => {
  const loaders = ['503'];
  const quiz = ['quiz', 'check', 'yourAnswer', 'correct', 'partly', 'incorrect', 'score', 'partlyCount', 'tryAgain',
    'lastTime', 'checking', 'hintsFirst', 'anotherHint', 'showAnswer'];
  const panel = Object.keys(PANEL_STRINGS.en).filter((k) => !loaders.includes(k));
  for (const [lang, table] of Object.entries({ es: ES, ja: JA, zh: ZH, ur: UR })) {
    assert.deepEqual(Object.keys(table).sort(), [...panel, ...quiz].sort(), lang);
    assert.ok(LANGUAGE_PARTS.includes(lang), lang); // the build makes widget-<lang>.js of it
    const t = loaderStrings(lang, undefined, { [lang]: table });
    assert.notEqual(t('title'), 'Ask the textbook', lang); // the loader's own words too
    assert.ok(t('explain', 'X').includes('X'), lang);
  }
  assert.equal(loaderStrings('ja-JP', undefined, { ja: JA })('summarizePage'), 'このページを要約');
});

test('the loader carries only its own words; the panel brings the rest', () => {
  assert.equal(loaderStrings('ur')('ask'), 'اس کے بارے میں پوچھیں');
  assert.equal(loaderStrings('ur')('503'), 'معاون اس وقت دستیاب نہیں۔');
  assert.equal(loaderStrings('en')('503'), 'The assistant is unavailable right now.');
  assert.equal(loaderStrings('en')('send'), 'send'); // not the loader's
  assert.equal(strings('ur')('title'), 'کتاب سے پوچھیں');
  assert.equal(strings('en-GB')('send'), 'Send');
});

test('English by default and for unknown languages', () => {
  assert.equal(strings('en')('ask'), 'Ask about this');
  assert.equal(strings('')('title'), 'Ask the textbook');
  assert.equal(strings('xx-YY')('send'), 'Send');
});

test('Urdu strings for ur and ur-PK; arguments are filled in', () => {
  const t = strings('ur-PK');
  assert.equal(t('ask'), 'اس کے بارے میں پوچھیں');
  assert.equal(t('explain', 'نمونہ'), '“نمونہ” کی وضاحت کریں');
  assert.equal(strings('en')('explain', 'Aliasing'), 'Explain “Aliasing”');
});

test('a site adds a language or overrides a string; missing keys fall back to English', () => {
  const extra = { fr: { ask: 'Demander' }, 'ur-in': { send: 'ارسال' } };
  assert.equal(strings('fr-CA', extra)('ask'), 'Demander');
  assert.equal(strings('fr', extra)('send'), 'Send');
  assert.equal(strings('ur-IN', extra)('send'), 'ارسال');
  assert.equal(strings('ur-IN', extra)('ask'), 'اس کے بارے میں پوچھیں');
  assert.equal(strings('en', 'not an object')('ask'), 'Ask about this');
});

test('right-to-left languages', () => {
  for (const l of ['ur', 'ur-PK', 'ar', 'fa-IR', 'he']) assert.ok(isRtl(l), l);
  for (const l of ['en', 'hi', 'fr', '', undefined]) assert.ok(!isRtl(l), l);
  assert.equal(baseLang('UR_pk'), 'ur');
});
