// The quiz cards' bookkeeping (the cards themselves are driven in a browser: tests/browser/test_quiz_cards.py):
// a round's score once every item is answered, the items missed for "Try again", progress per page
// in this browser's storage only, and the "Hints first" switch remembered.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { missed, readProgress, recordRound, scoreOf } from '../src/quiz-cards.js';
import { progressKey, quizHead, tutorKey, tutorOn } from '../src/practice.js';

const memory = () => {
  const data = new Map();
  return { getItem: (k) => (data.has(k) ? data.get(k) : null), setItem: (k, v) => data.set(k, String(v)), data };
};

test('a round is scored once every item has an answer; the missed ones make the next round', () => {
  const state = { round: [1, 2, 3], answers: { 1: { verdict: 'correct' }, 2: { verdict: 'partly' } } };
  assert.equal(scoreOf(state), null);
  state.answers[3] = { verdict: 'incorrect' };
  assert.deepEqual(scoreOf(state), { correct: 1, partly: 1, total: 3 });
  assert.deepEqual(missed(state), [2, 3]);
  assert.deepEqual(missed({ round: [4], answers: { 4: { verdict: 'correct' } } }), []);
});

test('progress is kept per page in this browser: how often quizzed, the last score', () => {
  const store = memory();
  const key = progressKey('https://book.example', 'rust');
  assert.equal(key, 'textbook-chat:progress:v1:https://book.example:rust');
  recordRound(key, 'https://book.example/ch1', 2, 5, store);
  const second = recordRound(key, 'https://book.example/ch1', 4, 5, store);
  assert.equal(second.quizzed, 2);
  assert.deepEqual(
    Object.fromEntries(Object.entries(readProgress(key, store)['https://book.example/ch1']).filter(([k]) => k !== 'at')),
    { quizzed: 2, score: 4, total: 5 }
  );
  assert.deepEqual(readProgress(key, { getItem: () => '{not json' }), {});
  assert.doesNotThrow(() => recordRound(key, 'p', 1, 1, { getItem: () => null, setItem: () => { throw new Error('full'); } }));
});

test('"Hints first" is remembered per site; storage that fails leaves it off', () => {
  const store = memory();
  assert.equal(tutorOn('https://a.example', store), false);
  store.setItem(tutorKey('https://a.example'), '1');
  assert.equal(tutorOn('https://a.example', store), true);
  assert.equal(tutorOn('https://b.example', store), false);
  assert.equal(tutorOn('https://a.example', { getItem: () => { throw new Error('blocked'); } }), false);
});

test('a quiz answer shows its title above the cards, not its questions again', () => {
  const text = '**Quiz: Sampling** [1] (the book\'s own questions)\n\n1. What is aliasing?\n   - A) x\n\nAsk “show the answers”…';
  assert.equal(quizHead(text), "**Quiz: Sampling** [1] (the book's own questions)");
});
