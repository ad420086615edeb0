import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse, inline, safeUrl } from '../src/markdown.js';

const p = (...children) => ({ tag: 'p', children });

test('paragraphs, soft line breaks', () => {
  assert.deepEqual(parse('one\ntwo\n\nthree'), [p('one', { tag: 'br' }, 'two'), p('three')]);
  assert.deepEqual(parse(''), []);
  assert.deepEqual(parse(null), []);
});

test('strong, em, inline code', () => {
  assert.deepEqual(inline('a **b** c *d* `e*f*`'), [
    'a ',
    { tag: 'strong', children: ['b'] },
    ' c ',
    { tag: 'em', children: ['d'] },
    ' ',
    { tag: 'code', children: ['e*f*'] },
  ]);
  assert.deepEqual(inline('**bold *and em* inside**'), [
    { tag: 'strong', children: ['bold ', { tag: 'em', children: ['and em'] }, ' inside'] },
  ]);
  assert.deepEqual(inline('``a ` b``'), [{ tag: 'code', children: ['a ` b'] }]);
});

test('snake_case and arithmetic stay plain text', () => {
  assert.deepEqual(inline('use snake_case_name, _private and __init__'), ['use snake_case_name, _private and __init__']);
  assert.deepEqual(inline('2 * 3 * 4'), ['2 * 3 * 4']);
});

test('escapes', () => {
  assert.deepEqual(inline('\\*not em\\* \\[1\\]'), ['*not em* [1]']);
});

test('fenced code blocks keep their text verbatim, even unclosed', () => {
  assert.deepEqual(parse('```python\nx = 1\n<b>*y*</b>\n```\nafter'), [
    { tag: 'pre', children: [{ tag: 'code', children: ['x = 1\n<b>*y*</b>'] }] },
    p('after'),
  ]);
  // While streaming the closing fence has not arrived yet.
  assert.deepEqual(parse('~~~\ncode'), [{ tag: 'pre', children: [{ tag: 'code', children: ['code'] }] }]);
  // A shorter fence does not close a longer one.
  assert.deepEqual(parse('````\n```\n````'), [{ tag: 'pre', children: [{ tag: 'code', children: ['```'] }] }]);
});

test('bullet and numbered lists', () => {
  const li = (...children) => ({ tag: 'li', children });
  assert.deepEqual(parse('- a\n* b\n+ **c**'), [{ tag: 'ul', children: [li('a'), li('b'), li({ tag: 'strong', children: ['c'] })] }]);
  assert.deepEqual(parse('1. x\n2) y'), [{ tag: 'ol', children: [li('x'), li('y')] }]);
  // Blank lines between items keep one list; a numbered list can start later.
  assert.deepEqual(parse('1. x\n\n2. y'), [{ tag: 'ol', children: [li('x'), li('y')] }]);
  assert.deepEqual(parse('3. z'), [{ tag: 'ol', children: [li('z')], start: 3 }]);
  // Indented continuation lines join the item; a new kind of marker starts a new list.
  assert.deepEqual(parse('- a\n  more\n1. n'), [
    { tag: 'ul', children: [li('a', { tag: 'br' }, 'more')] },
    { tag: 'ol', children: [li('n')] },
  ]);
  // A line right after an item goes on with it, indented or not (a "lazy" line, as CommonMark reads it:
  // a book's "- [`-O`](…) -\n    Compile with optimizations" quoted without its indent); a paragraph after
  // a blank line, or a heading, closes the list.
  assert.deepEqual(parse('- a\ntext'), [{ tag: 'ul', children: [li('a', { tag: 'br' }, 'text')] }]);
  assert.deepEqual(parse('- a\n  - b\nmore\n- c'), [{ tag: 'ul', children: [
    { tag: 'li', children: ['a'], nested: { tag: 'ul', children: [li('b', { tag: 'br' }, 'more')] } }, li('c')] }]);
  assert.deepEqual(parse('- a\n\ntext'), [{ tag: 'ul', children: [li('a')] }, p('text')]);
  assert.deepEqual(parse('- a\n## H'), [{ tag: 'ul', children: [li('a')] }, p({ tag: 'strong', children: ['H'] })]);
});

test('headings become bold paragraphs; quote markers are dropped', () => {
  assert.deepEqual(parse('## Title ##\nbody'), [p({ tag: 'strong', children: ['Title'] }), p('body')]);
  assert.deepEqual(parse('> quoted'), [p('quoted')]);
});

test('citations [n] and [n, m]', () => {
  assert.deepEqual(inline('Topics [1][2], services [3, 4].'), [
    'Topics ',
    { tag: 'cite', n: 1 },
    { tag: 'cite', n: 2 },
    ', services ',
    { tag: 'cite', n: 3 },
    { tag: 'cite', n: 4 },
    '.',
  ]);
  assert.deepEqual(inline('an array a[i] stays text'), ['an array a[i] stays text']);
});

test('links: http(s) only, label kept as text', () => {
  assert.deepEqual(inline('[ROS](https://docs.ros.org/en/a_(b)) x'), [
    { tag: 'a', href: 'https://docs.ros.org/en/a_(b)', children: ['ROS'] },
    ' x',
  ]);
  assert.deepEqual(inline('see https://example.org/page.'), ['see ', { tag: 'a', href: 'https://example.org/page', children: ['https://example.org/page'] }, '.']);
  assert.deepEqual(inline('[x](/relative)'), ['x']);
  // a book's own link is its label, read as text is (its code as code): "as you saw in “Shared Access to `Mutex<T>`”"
  assert.deepEqual(inline('[“Shared Access to `Mutex<T>`”](ch16-03.html#a)'), ['“Shared Access to ', { tag: 'code', children: ['Mutex<T>'] }, '”']);
  assert.deepEqual(inline('[the `<b>` tag](https://a.b/)'), [{ tag: 'a', href: 'https://a.b/', children: ['the `<b>` tag'] }]);
});

test('safeUrl accepts only absolute http(s)', () => {
  assert.equal(safeUrl('https://a.b/c?d#e'), 'https://a.b/c?d#e');
  assert.equal(safeUrl('HTTP://A.B'), 'http://a.b/');
  for (const bad of ['javascript:alert(1)', 'JaVaScRiPt:alert(1)', ' javascript:alert(1)', 'data:text/html,<b>', 'vbscript:x', 'file:///etc/passwd', '//evil.com', '/x', 'mailto:a@b']) {
    assert.equal(safeUrl(bad), null, bad);
  }
  assert.equal(safeUrl('/docs/x', 'https://site.org/book/'), 'https://site.org/docs/x');
});

// Every element in a tree must be from the allowed set, and every link must be http(s).
const ALLOWED = new Set(['p', 'br', 'strong', 'em', 'code', 'pre', 'ul', 'ol', 'li', 'a', 'cite']);
function assertSafe(nodes) {
  for (const n of nodes) {
    if (typeof n === 'string') continue;
    assert.ok(ALLOWED.has(n.tag), `unexpected tag ${n.tag}`);
    for (const key of Object.keys(n)) assert.ok(['tag', 'children', 'href', 'n', 'start'].includes(key), `unexpected key ${key}`);
    if (n.tag === 'a') assert.match(n.href, /^https?:\/\//);
    assertSafe(n.children || []);
  }
}

test('hostile input yields only text and safe links', () => {
  const cases = {
    '<img src=x onerror=alert(1)>': [p('<img src=x onerror=alert(1)>')],
    '<script>alert(1)</script>': [p('<script>alert(1)</script>')],
    '[x](javascript:alert(1))': [p('x')],
    '[x](JAVASCRIPT:alert(1))': [p('x')],
    '[x](data:text/html;base64,PHNjcmlwdD4=)': [p('x')],
    '[x](  javascript:alert(1)  )': [p('x')],
    '<a href="javascript:alert(1)">y</a>': [p('<a href="javascript:alert(1)">y</a>')],
    '**unclosed *em': [p('**unclosed *em')],
    '*a **b* c**': null,
    '`unclosed code': [p('`unclosed code')],
    '[unclosed](https://x': [p('[unclosed](', { tag: 'a', href: 'https://x/', children: ['https://x'] })],
    '<iframe srcdoc="<script>">': [p('<iframe srcdoc="<script>">')],
    '&lt;b&gt; &amp;': [p('&lt;b&gt; &amp;')],
  };
  for (const [src, expected] of Object.entries(cases)) {
    const tree = parse(src);
    assertSafe(tree);
    if (expected) assert.deepEqual(tree, expected, src);
  }
});

test('pathological input stays fast and safe', () => {
  const src = '*'.repeat(3000) + '`'.repeat(3000) + '['.repeat(2000) + '_'.repeat(2000);
  const t0 = performance.now();
  assertSafe(parse(src));
  assert.ok(performance.now() - t0 < 1000);
});

test('tables: a header row, the delimiter row, then body rows; cells read inline markdown', () => {
  const [table, after] = parse('| Term | Meaning |\n|:-----|-----:|\n| `x` | a **name** |\n| y \\| z | two |\nAfter.');
  assert.equal(table.tag, 'table');
  assert.deepEqual(table.children.map((tr) => tr.children.map((c) => c.tag)), [['th', 'th'], ['td', 'td'], ['td', 'td']]);
  assert.deepEqual(table.children[1].children[0].children, [{ tag: 'code', children: ['x'] }]);
  assert.deepEqual(table.children[1].children[1].children, ['a ', { tag: 'strong', children: ['name'] }]);
  assert.deepEqual(table.children[2].children[0].children, ['y | z']);
  assert.deepEqual(after, { tag: 'p', children: ['After.'] });
  // rows without a delimiter row under the first are not a table
  assert.equal(parse('| a | b |\n| c | d |')[0].tag, 'p');
  // an empty header row (a book's grid) is still a table
  assert.equal(parse('|   |   |\n|:-:|:-:|\n| a | b |')[0].tag, 'table');
});
