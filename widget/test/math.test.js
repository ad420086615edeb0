import { test } from 'node:test';
import assert from 'node:assert/strict';
import { texToMathML, tokenize } from '../src/math.js';
import { parse } from '../src/markdown.js';

// A compact notation of the tree: mi(f), msub(mi(f) mi(s))...
const show = (n) => (n.text != null ? `${n.tag}(${n.text})` : `${n.tag}(${n.children.map(show).join(' ')})`);

test('scripts, operators, functions and numbers', () => {
  assert.equal(show(texToMathML('f_s > 2 f_{\\max}')), 'math(mrow(msub(mi(f) mi(s)) mo(>) mn(2) msub(mi(f) mi(max))))');
  assert.equal(show(texToMathML('x^2_i - 3.5')), 'math(mrow(msubsup(mi(x) mi(i) mn(2)) mo(−) mn(3.5)))');
});

test('fractions, roots, Greek letters, symbols, text, display mode', () => {
  const m = texToMathML('\\frac{1}{2\\pi} \\sqrt{x} \\le \\text{if } n', true);
  assert.deepEqual(m.attrs, { display: 'block' });
  assert.equal(show(m), 'math(mrow(mfrac(mn(1) mrow(mn(2) mi(π))) msqrt(mi(x)) mo(≤) mtext(if ) mi(n)))');
  assert.equal(show(texToMathML('\\sqrt[3]{8}')), 'math(mroot(mn(8) mn(3)))');
  assert.equal(show(texToMathML('\\hat{x}')), 'math(mover(mi(x) mo(^)))');
});

test('unknown commands and unbalanced input never throw', () => {
  assert.equal(show(texToMathML('\\foo x')), 'math(mrow(mtext(\\foo) mi(x)))');
  for (const bad of ['{', '}', 'x^', '\\frac{1}', '\\left(', '\\sqrt[', '', '$']) assert.ok(texToMathML(bad).tag === 'math', bad);
  assert.deepEqual(tokenize('\\text{a b} \\, 10'), ['\\text{a b}', '\\,', '10']);
});

test('markdown: $…$ inline, $$…$$ blocks, dollars as money stay text', () => {
  assert.deepEqual(parse('Rate $f_s$ here'), [{ tag: 'p', children: ['Rate ', { tag: 'math', tex: 'f_s', display: false }, ' here'] }]);
  assert.deepEqual(parse('$$\n\\frac{a}{b}\n$$'), [{ tag: 'math', tex: '\\frac{a}{b}', display: true }]);
  assert.deepEqual(parse('$$ x^2 $$'), [{ tag: 'math', tex: 'x^2', display: true }]);
  assert.deepEqual(parse('It costs $5 and $10.'), [{ tag: 'p', children: ['It costs $5 and $10.'] }]);
  assert.deepEqual(parse('a \\$x$ b'), [{ tag: 'p', children: ['a $x$ b'] }]);
});
