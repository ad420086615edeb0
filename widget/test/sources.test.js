import { test } from 'node:test';
import assert from 'node:assert/strict';
import { toSources } from '../src/sources.js';

const PAGE = 'https://book.example/docs/sampling';

test('book sources: label from source_location, link with a text fragment', () => {
  const [s] = toSources(
    [
      {
        url: 'https://book.example/docs/filters#fir-versus-iir',
        content: '## FIR versus IIR\n\nDigital filters come in two families.',
        source_location: 'Practice › Digital Filters › FIR versus IIR',
        source_type: 'database',
      },
    ],
    PAGE
  );
  assert.deepEqual(s, {
    label: 'Practice › Digital Filters › FIR versus IIR',
    url: 'https://book.example/docs/filters#fir-versus-iir',
    href: 'https://book.example/docs/filters#fir-versus-iir:~:text=Digital%20filters%20come%20in%20two%20families.',
  });
});

test('label fallbacks, relative URLs, selection sources, unsafe URLs', () => {
  const out = toSources(
    [
      { chapter: 'Sampling', heading: 'Aliasing', url: '/docs/sampling#aliasing', content: 'Aliasing folds high frequencies down.' },
      { source_file: 'docs/x.md', url: '' },
      { source_type: 'selected_text', content: 'The passage the reader selected here.' },
      { url: 'javascript:alert(1)', heading: 'Evil' },
    ],
    PAGE
  );
  assert.equal(out[0].label, 'Sampling › Aliasing');
  assert.equal(out[0].href, 'https://book.example/docs/sampling#aliasing:~:text=Aliasing%20folds%20high%20frequencies%20down.');
  assert.deepEqual(out[1], { label: 'docs/x.md', url: null, href: null });
  assert.equal(out[2].label, 'Your selected passage');
  assert.equal(out[2].href, PAGE + '#:~:text=The%20passage%20the%20reader%20selected%20here.');
  assert.deepEqual(out[3], { label: 'Evil', url: null, href: null });
});

test('not a list → no sources', () => {
  assert.deepEqual(toSources(undefined, PAGE), []);
});

test('breadcrumb labels: page › section shown, the whole path as the tooltip', () => {
  const [s] = toSources(
    [
      {
        url: 'https://book.example/docs/module1/urdf#joints',
        labels: ['Module 1: The Robotic Nervous System (ROS 2)', 'URDF for Humanoids'],
        chapter: 'urdf',
        heading: 'Joint Types',
        locale: 'en',
      },
    ],
    PAGE,
    'en'
  );
  assert.equal(s.label, 'URDF for Humanoids › Joint Types');
  assert.equal(s.full, 'Module 1: The Robotic Nervous System (ROS 2) › URDF for Humanoids › Joint Types');
});

test('a source in another language than the page says so', () => {
  const [s] = toSources([{ url: '/docs/a', labels: ['Intro'], heading: 'Intro', locale: 'en' }], PAGE, 'ur');
  assert.equal(s.label, 'Intro (en)');
  assert.equal(s.full, 'Intro: another language');
  const [same] = toSources([{ url: '/docs/a', labels: ['Intro'], locale: 'en' }], PAGE, 'en-US');
  assert.equal(same.label, 'Intro');
});

test('the selected passage is labelled in the reader\'s language', () => {
  const [s] = toSources([{ source_type: 'selected_text', content: 'x y z w' }], PAGE, 'ur', 'آپ کا منتخب اقتباس');
  assert.equal(s.label, 'آپ کا منتخب اقتباس');
});
