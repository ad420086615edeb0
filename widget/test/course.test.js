import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from '../src/markdown.js';
import { courseQuestions, posedQuiz } from '../src/course.js';

const li = (text, nested) => (nested ? { tag: 'li', children: [text], nested } : { tag: 'li', children: [text] });

test('a contents answer parses as nested lists: parts, their pages, their sections', () => {
  const tree = parse('- Module 1\n  - Page A\n    - Section a1\n  - Page B\n- Module 2\n  - Page C');
  assert.deepEqual(tree, [
    {
      tag: 'ul',
      children: [
        li('Module 1', {
          tag: 'ul',
          children: [li('Page A', { tag: 'ul', children: [li('Section a1')] }), li('Page B')],
        }),
        li('Module 2', { tag: 'ul', children: [li('Page C')] }),
      ],
    },
  ]);
});

test('quiz questions stay one numbered list with their options inside and the answer on the next line', () => {
  const [list] = parse('1. What is x?\n   - a) one\n   - b) two\n2. Why y?\n   **because**');
  assert.equal(list.tag, 'ol');
  assert.equal(list.children.length, 2);
  assert.equal(list.children[0].nested.children.length, 2);
  assert.deepEqual(list.children[1].children, ['Why y?', { tag: 'br' }, { tag: 'strong', children: ['because'] }]);
});

test('course suggestions are asked in the words the server reads, labelled in the reader’s language', () => {
  const t = (k) => ({ summarizePage: 'خلاصہ', quizPage: 'کوئز' })[k];
  assert.deepEqual(courseQuestions(t), [
    { label: 'خلاصہ', ask: 'Summarize this page' },
    { label: 'کوئز', ask: 'Quiz me on this page' },
  ]);
  assert.equal(posedQuiz({ status: 'completed', course: { task: 'quiz' } }), true);
  assert.equal(posedQuiz({ status: 'refused', course: { task: 'quiz' } }), false);
  assert.equal(posedQuiz({ status: 'completed', course: null }), false);
});
