import { test } from 'node:test';
import assert from 'node:assert/strict';
import { citedNumbers } from '../src/source-list.js';

test('the sources an answer used: its markers, in the order first cited; code and links are not markers', () => {
  assert.deepEqual(citedNumbers('Sampling [2]. Quantization [1]. Again [2].'), [2, 1]);
  assert.deepEqual(citedNumbers('See `x[3]` and\n```\nv[4] = 1\n```\n[a link](http://x) [5].'), [5]);
  assert.deepEqual(citedNumbers(''), []);
});
