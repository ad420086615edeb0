import { test } from 'node:test';
import assert from 'node:assert/strict';
import { directive, locate } from '../src/cite.js';

const squeeze = (s) => s.replace(/\s+/g, '').toLowerCase();

test('the text directive of a citation link, decoded', () => {
  assert.deepEqual(directive('https://b.example/docs/a#topics:~:text=Topics%20are%20named,exchange%20messages.'), [
    'Topics are named',
    'exchange messages.',
  ]);
  assert.deepEqual(directive('https://b.example/docs/a#:~:text=A%2Dtone'), ['A-tone']);
  assert.deepEqual(directive('https://b.example/docs/a#topics'), []);
  assert.deepEqual(directive('https://b.example/docs/a#:~:text=%E0%A4%A'), []); // not decodable
});

test('a passage is found by its first words (and last), whatever the spacing and case', () => {
  const page = squeeze('Intro.\n\nA tone above the   Nyquist frequency does not disappear. It folds back.');
  const [from, to] = locate(page, 'a tone above the Nyquist', 'does not disappear.');
  assert.equal(page.slice(from, to), squeeze('A tone above the Nyquist frequency does not disappear.'));
  assert.equal(page.slice(...locate(page, 'It folds back.')), squeeze('It folds back.'));
  assert.equal(locate(page, 'not on the page'), null);
  assert.equal(locate(page, 'Intro.', 'It folds back.', 20), null); // the end too far from the start
  assert.equal(locate(page, 'It folds back.', 'Intro.'), null); // the end only before the start
  assert.equal(locate(page, ''), null);
});
