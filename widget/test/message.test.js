import { test } from 'node:test';
import assert from 'node:assert/strict';
import { genLabel, excerpt } from '../src/message.js';
import { nextShown } from '../src/chat.js';
import { pageQuestions, headingText } from '../src/suggest.js';
import { strings } from '../src/i18n.js';
import { PANEL_STRINGS } from '../src/panel-strings.js';

const t = strings('en', undefined, PANEL_STRINGS);

test('answer labels: quoted, AI with the model, nothing when no model was used', () => {
  assert.equal(genLabel({ status: 'done', generator: 'extractive' }, t), 'Quoted from the book');
  assert.equal(genLabel({ status: 'done', generator: 'gemini-2.5-flash' }, t), 'AI answer · gemini-2.5-flash');
  assert.equal(genLabel({ status: 'refused', generator: 'none' }, t), '');
  assert.equal(genLabel({ status: 'refused', generator: 'gemini' }, t), '');
  assert.equal(genLabel({ status: 'done', generator: 'none' }, t), '');
  assert.equal(genLabel({ status: 'done' }, t), '');
});

test('a quoted passage is cut at a word with an ellipsis; short ones stay whole', () => {
  assert.equal(excerpt('Short  passage.\n'), 'Short passage.');
  const long = 'word '.repeat(60);
  const cut = excerpt(long, 40);
  assert.ok(cut.endsWith('word…') && cut.length <= 41, cut);
  assert.equal(excerpt('a'.repeat(50), 10), 'aaaaaaaaaa…');
});

test('pacing: a burst drains over frames, ends on word boundaries, never stalls', () => {
  const text = 'The sampling theorem says a bandlimited signal can be rebuilt. '.repeat(10);
  let shown = 0;
  let frames = 0;
  while (shown < text.length) {
    const next = nextShown(text, shown);
    assert.ok(next > shown);
    assert.ok(next === text.length || /\s/.test(text[next]), `cut inside a word at ${next}`);
    shown = next;
    frames++;
  }
  assert.ok(frames >= 15 && frames <= 120, frames); // a quarter second to two seconds at 60 fps
  assert.equal(nextShown('abc', 5), 3);
});

test('suggested questions from section headings, in page order, without duplicates', () => {
  const el = (text, inside = false) => ({ textContent: text, inside });
  const headings = {
    'article h2, article h3, main h2, main h3': [el('The sampling theorem#'), el('Aliasing\u200b'), el('aliasing'), el('12'), el('Widget', true), el('Filters'), el('More')],
    'article h1, main h1, h1': [el('Sampling')],
  };
  const doc = { querySelectorAll: (sel) => headings[sel] || [] };
  const skip = { contains: (e) => e.inside };
  assert.deepEqual(pageQuestions(doc, skip, t), ['Explain “The sampling theorem”', 'Explain “Aliasing”', 'Explain “Filters”']);
  headings['article h2, article h3, main h2, main h3'] = [];
  assert.deepEqual(pageQuestions(doc, skip, t), ['Explain “Sampling”']);
  assert.equal(headingText({ textContent: '  A  b ​#' }), 'A b');
});
