import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fragmentUrl, textDirective, encodeTerm, paragraphs } from '../src/fragment.js';

test('encodeTerm percent-encodes - , & spaces and unicode', () => {
  assert.equal(encodeTerm('a-b, c & d'), 'a%2Db%2C%20c%20%26%20d');
  assert.equal(encodeTerm('café 中'), 'caf%C3%A9%20%E4%B8%AD');
  assert.equal(encodeTerm('50% #1 ?'), '50%25%20%231%20%3F');
});

test('short passage: a single textStart', () => {
  assert.equal(textDirective('Topics are named buses.'), 'Topics%20are%20named%20buses.');
});

test('long paragraph followed by more text: textStart,textEnd within that paragraph', () => {
  const md = 'Digital filters come in two families, which differ in whether the output is fed back.\n\nMore text here follows.';
  assert.equal(textDirective(md), 'Digital%20filters%20come%20in%20two%20families%2C,whether%20the%20output%20is%20fed%20back.');
});

test('long last paragraph (may be cut by the chunker): the first words only', () => {
  const md = 'A digital filter is an LTI system that changes the balance of frequencies in a signal';
  assert.equal(textDirective(md), encodeTerm('A digital filter is an LTI system that changes the'));
});

test('markdown syntax is stripped; headings, code, tables, JSX and imports are skipped', () => {
  const md = [
    '---',
    '## Filter vocabulary',
    "import Tabs from '@theme/Tabs';",
    '<Tabs groupId="x">',
    '```python',
    'x = signal.firwin(101)',
    '```',
    '| a | b |',
    'A **low-pass** filter passes *low* `frequencies` and [blocks](./x.md) high ones.',
    '',
    'Next paragraph.',
  ].join('\n');
  assert.deepEqual(paragraphs(md)[0], 'A low-pass filter passes low frequencies and blocks high ones.'.split(' '));
  // 10 words: short enough for a single textStart.
  assert.equal(textDirective(md), 'A%20low%2Dpass%20filter%20passes%20low%20frequencies%20and%20blocks%20high%20ones.');
});

test('prefers a paragraph of at least four words; list items are their own blocks', () => {
  assert.equal(textDirective('Example:\n\nThe sampling rate must exceed twice the bandwidth.'), encodeTerm('The sampling rate must exceed twice the bandwidth.'));
  assert.deepEqual(paragraphs('- first item here\n- second item'), [['first', 'item', 'here'], ['second', 'item']]);
});

test('a trailing punctuation-only word is dropped', () => {
  assert.equal(textDirective('Nodes exchange messages & data —'), encodeTerm('Nodes exchange messages & data'));
});

test('fragmentUrl: without an anchor', () => {
  assert.equal(fragmentUrl('https://x.org/page', 'Topics are named buses.'), 'https://x.org/page#:~:text=Topics%20are%20named%20buses.');
});

test('fragmentUrl: the text directive follows an existing heading anchor', () => {
  assert.equal(fragmentUrl('https://x.org/page#topics', 'Topics are named buses.'), 'https://x.org/page#topics:~:text=Topics%20are%20named%20buses.');
});

test('fragmentUrl: an existing text directive is replaced, query strings kept', () => {
  assert.equal(
    fragmentUrl('https://x.org/p?a=1#h:~:text=old', 'New words for this.'),
    'https://x.org/p?a=1#h:~:text=New%20words%20for%20this.'
  );
});

test('fragmentUrl: nothing usable leaves the URL unchanged', () => {
  assert.equal(fragmentUrl('https://x.org/p#h', '## Only a heading\n```\ncode\n```'), 'https://x.org/p#h');
  assert.equal(fragmentUrl('https://x.org/p', ''), 'https://x.org/p');
  assert.equal(fragmentUrl('', 'text'), '');
});

test('fragmentUrl: unicode passage with dashes and commas', () => {
  const url = fragmentUrl('https://x.org/文档#节', 'Le filtre passe-bas, très utilisé.');
  assert.equal(url, 'https://x.org/文档#节:~:text=Le%20filtre%20passe%2Dbas%2C%20tr%C3%A8s%20utilis%C3%A9.');
  // The directive part contains no raw "-", "," (other than the textStart,textEnd separator) or "&".
  assert.doesNotMatch(url.split(':~:text=')[1], /[-&\s]/);
});
