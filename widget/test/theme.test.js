import { test } from 'node:test';
import assert from 'node:assert/strict';
import { contrastText, ratio, readable } from '../src/theme.js';

const rgb = (s) => s.match(/\d+/g).map(Number);

test('contrast ratios as WCAG computes them', () => {
  assert.equal(Math.round(ratio([0, 0, 0], [255, 255, 255]) * 10) / 10, 21);
  assert.equal(ratio([255, 255, 255], [255, 255, 255]), 1);
  assert.equal(contrastText('rgb(255, 224, 130)'), '#111');
  assert.equal(contrastText('rgb(46, 133, 85)'), '#fff');
});

test('link colour: the accent where it reads at 4.5:1, else mixed toward the text colour', () => {
  const white = 'rgb(255, 255, 255)';
  const dark = 'rgb(30, 31, 34)';
  assert.equal(readable('rgb(0, 80, 160)', white, 'rgb(28, 30, 33)'), 'rgb(0,80,160)'); // already reads
  for (const [accent, bg, fg] of [
    ['rgb(53, 120, 229)', white, 'rgb(28, 30, 33)'], // Docusaurus's blue on white: 4.0:1
    ['rgb(46, 133, 85)', dark, 'rgb(228, 230, 235)'], // the default green on the dark panel
  ]) {
    const link = readable(accent, bg, fg);
    assert.notEqual(link, accent);
    assert.ok(ratio(rgb(link), rgb(bg)) >= 4.5, `${link} on ${bg}`);
  }
});
