import { test } from 'node:test';
import assert from 'node:assert/strict';
import { codeLanguage } from '../src/selection.js';

// an element and its ancestors, innermost first: [tagName, className]
const chain = (...levels) =>
  levels.reduceRight((parent, [tagName, className]) => ({ tagName, className, parentElement: parent }), null);

test('a Docusaurus code block: the language on its <pre>, found from a token inside it', () => {
  const token = chain(
    ['SPAN', 'token keyword'],
    ['SPAN', 'token-line'],
    ['CODE', 'codeBlockLines_e6Vv'],
    ['PRE', 'prism-code language-python codeBlock_bY9V thin-scrollbar'],
    ['DIV', 'codeBlockContent_biex'],
    ['DIV', 'language-python theme-code-block codeBlockContainer_Ckt0'],
    ['ARTICLE', ''],
    ['BODY', '']
  );
  assert.equal(codeLanguage(token), 'python');
});

test('markdown-it and mdBook: the language on the <code>', () => {
  assert.equal(codeLanguage(chain(['CODE', 'language-rust hljs'], ['PRE', ''], ['MAIN', ''])), 'rust');
  assert.equal(codeLanguage(chain(['CODE', 'language-C++'], ['PRE', ''])), 'c++');
});

test('prose, inline code and unmarked blocks have no language', () => {
  assert.equal(codeLanguage(chain(['P', ''], ['DIV', 'language-python'], ['BODY', ''])), '');
  assert.equal(codeLanguage(chain(['CODE', ''], ['P', ''], ['DIV', 'language-python theme-code-block'])), '');
  assert.equal(codeLanguage(chain(['CODE', ''], ['PRE', ''], ['DIV', 'markdown'])), '');
  assert.equal(codeLanguage(null), '');
});
