// toDom (tree → DOM nodes) against a tiny fake `document`: checks what would be created,
// that hostile text only ever becomes text nodes, and that only http(s) links come out.
// Real rendering is covered by the browser tests.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from '../src/markdown.js';

class FakeNode {
  constructor(nodeType) {
    this.nodeType = nodeType;
    this.childNodes = [];
  }
  append(...nodes) {
    for (const n of nodes) this.childNodes.push(typeof n === 'string' ? new FakeText(n) : n);
  }
  get textContent() {
    return this.childNodes.map((c) => c.textContent).join('');
  }
}
class FakeText extends FakeNode {
  constructor(data) {
    super(3);
    this.data = String(data);
  }
  get textContent() {
    return this.data;
  }
}
class FakeElement extends FakeNode {
  constructor(tag) {
    super(1);
    this.tagName = tag.toUpperCase();
    this.attributes = {};
  }
  setAttribute(k, v) {
    this.attributes[k] = String(v);
  }
  addEventListener() {}
  set innerHTML(_) {
    throw new Error('innerHTML must never be used');
  }
}
const fakeDocument = {
  createElement: (tag) => new FakeElement(tag),
  createElementNS: (_ns, tag) => new FakeElement(tag),
  createTextNode: (data) => new FakeText(data),
  createDocumentFragment: () => new FakeNode(11),
};

/** Flatten a fake node tree for assertions. */
function walk(node, out = []) {
  if (node.nodeType === 3) out.push({ text: node.data });
  else if (node.nodeType === 1) out.push({ tag: node.tagName.toLowerCase(), attributes: node.attributes });
  for (const c of node.childNodes) walk(c, out);
  return out;
}

let toDom, h;
before(async () => {
  globalThis.document = fakeDocument;
  ({ h } = await import('../src/dom.js'));
  ({ toDom } = await import('../src/render.js'));
});

const SOURCES = [
  { label: 'Module 1 › Topics', href: 'https://book.example/docs/topics#topics:~:text=Topics%20are' },
  { label: 'Bad', href: 'javascript:alert(1)' },
];

test('builds elements for each construct', () => {
  const nodes = walk(toDom(parse('Hi **b** *e* `c`\n\n- one\n- two\n\n3. three\n\n```\npre\n```'), SOURCES));
  assert.deepEqual(
    nodes.filter((n) => n.tag).map((n) => n.tag),
    ['p', 'strong', 'em', 'code', 'ul', 'li', 'li', 'ol', 'li', 'pre', 'code']
  );
  assert.equal(nodes.find((n) => n.tag === 'ol').attributes.start, '3');
});

test('citations link to their source; unknown or unsafe sources stay text', () => {
  const nodes = walk(toDom(parse('A [1] B [2] C [9]'), SOURCES));
  const cite = nodes.find((n) => n.tag === 'a');
  assert.deepEqual(cite.attributes, {
    class: 'cite',
    href: SOURCES[0].href,
    title: 'Module 1 › Topics',
    'aria-label': '[1] Module 1 › Topics',
  });
  assert.equal(nodes.filter((n) => n.tag === 'a').length, 1);
  assert.ok(nodes.some((n) => n.text === '[2]'));
  assert.ok(nodes.some((n) => n.text === '[9]'));
});

test('a quoted answer cites the words it quotes, not its passage\'s first paragraph', () => {
  // the Haskell book's "We could guess …" sentence is its chunk's second: the link had marked "Some
  // functions' documentation include this", the chunk's first paragraph, on the cited page
  const sources = [
    {
      label: 'Exceptions',
      url: 'https://book.example/exceptions.html',
      href: 'https://book.example/exceptions.html#:~:text=Some%20functions\'%20documentation',
    },
  ];
  const text = 'We could guess from the [list of instances](https://x.example) the `Exception` type class has [1].\n\n- a **bold** start of an item [1]';
  const cites = (quoted) =>
    walk(toDom(parse(text), sources, (u) => u, quoted))
      .filter((n) => n.attributes?.class === 'cite')
      .map((n) => n.attributes.href);
  assert.deepEqual(cites(true), [
    'https://book.example/exceptions.html#:~:text=We%20could%20guess%20from%20the%20list%20of%20instances%20the%20Exception',
    'https://book.example/exceptions.html#:~:text=a%20bold%20start%20of%20an%20item',
  ]);
  // a model's words are not the book's: its citations keep the passage's own fragment
  assert.deepEqual(cites(false), [sources[0].href, sources[0].href]);
  // a citation with no words before it in its paragraph ("[1]" after code) keeps it too
  assert.deepEqual(walk(toDom(parse('[1]'), sources, (u) => u, true)).find((n) => n.tag === 'a').attributes.href, sources[0].href);
});

test('answer links open in a new tab without opener or referrer', () => {
  const [a] = walk(toDom(parse('[docs](https://docs.ros.org)'))).filter((n) => n.tag === 'a');
  assert.deepEqual(a.attributes, { href: 'https://docs.ros.org/', target: '_blank', rel: 'noopener noreferrer nofollow' });
});

test('hostile markdown produces only text nodes and safe links', () => {
  const hostile = [
    '<img src=x onerror=alert(1)>',
    '<script>alert(1)</script>',
    '[x](javascript:alert(1))',
    '<a href="javascript:alert(1)">x</a>',
    '**<svg onload=alert(1)>**',
    '`</code><script>alert(1)</script>`',
  ].join('\n\n');
  const nodes = walk(toDom(parse(hostile), SOURCES));
  for (const n of nodes) {
    if (n.text !== undefined) continue;
    assert.ok(['p', 'strong', 'code', 'br'].includes(n.tag), `unexpected element ${n.tag}`);
    assert.deepEqual(Object.keys(n.attributes), [], `no attributes on ${n.tag}`);
  }
  const text = nodes.map((n) => n.text || '').join('');
  assert.ok(text.includes('<script>alert(1)</script>'), 'markup shows as text');
  assert.ok(text.includes('<img src=x onerror=alert(1)>'));
});

test('trees from elsewhere are filtered: unknown tags dropped, bad hrefs unlinked', () => {
  const tree = [
    { tag: 'script', children: ['alert(1)'] },
    { tag: 'a', href: 'javascript:alert(1)', children: ['click'] },
    { tag: 'img', src: 'x', onerror: 'alert(1)', children: [] },
    { tag: 'p', onclick: 'alert(1)', children: ['ok'] },
  ];
  const nodes = walk(toDom(tree));
  assert.deepEqual(nodes.filter((n) => n.tag), [{ tag: 'p', attributes: {} }]);
  assert.deepEqual(nodes.filter((n) => n.text).map((n) => n.text), ['alert(1)', 'click', 'ok']);
});

test('h() sets attributes, skips null/false, appends strings as text', () => {
  const el = h('button', { class: 'x', hidden: true, title: null, disabled: false }, 'a', null, ['<b>']);
  assert.deepEqual(el.attributes, { class: 'x', hidden: '' });
  assert.deepEqual(walk(el).slice(1), [{ text: 'a' }, { text: '<b>' }]);
});

test('answer links go through `link` (the same page on the reader\'s site) before they are checked', () => {
  const link = (u) => u.replace('https://books.example.org/', 'http://localhost:3000/');
  const [a] = walk(toDom(parse('Read [Filters](https://books.example.org/docs/filters) next.'), [], link)).filter((n) => n.tag === 'a');
  assert.equal(a.attributes.href, 'http://localhost:3000/docs/filters');
  const [bad] = walk(toDom(parse('[x](https://books.example.org/x)'), [], () => 'javascript:alert(1)')).filter((n) => n.tag === 'a');
  assert.equal(bad, undefined); // re-validated after the mapping
});

test('a table is built as table, rows and cells, a cell holding markup as text', () => {
  const nodes = walk(toDom(parse('| Sort | Type |\n|---|---|\n| <img src=x onerror=alert(1)> | **Prop** |')));
  assert.deepEqual(nodes.filter((n) => n.tag).map((n) => n.tag), ['table', 'tr', 'th', 'th', 'tr', 'td', 'td', 'strong']);
  assert.ok(nodes.some((n) => n.text === '<img src=x onerror=alert(1)>'));
});
