// Links that scroll to and highlight a cited passage: URL text fragments
// (https://wicg.github.io/scroll-to-text-fragment/), e.g.
//   https://site/docs/page#topics:~:text=Topics%20are%20named%20buses,exchange%20messages.
//
// Choices, and why:
// - A URL has one fragment; the text directive follows the heading anchor after `:~:`. If the
//   text does not match, the browser still scrolls to the anchor, so the anchor is kept.
// - textStart alone must lie inside one block element (a paragraph, a list item), so the
//   directive is built from one paragraph of the passage, never across blocks.
// - Markdown syntax is stripped so the words match the rendered page. Headings are skipped:
//   the same words also appear in the sidebar and table of contents, which come first.
// - Short paragraphs (≤ MAX_WORDS) become textStart; longer ones textStart,textEnd with
//   EDGE_WORDS words each, which highlights the whole paragraph and tolerates small
//   differences inside it. The last paragraph of a passage may be cut mid-way by the chunker,
//   so it only gets a textStart.

const MAX_WORDS = 10;
const EDGE_WORDS = 6;
const MIN_WORDS = 4; // shorter paragraphs ("Example:") are not distinctive enough

/** Percent-encode a directive term. encodeURIComponent covers `,` `&` and spaces; `-` is added. */
export const encodeTerm = (s) => encodeURIComponent(s).replace(/-/g, '%2D');

// Lines that are not prose on the rendered page: headings, admonition fences, tables,
// JSX/HTML blocks, MDX import/export, rules, images, front-matter fences.
const SKIP = /^(#{1,6}\s|:::|\||<\/?[A-Za-z]|import\s|export\s|(-{3,}|\*{3,}|_{3,})$|!\[)/;
const BLOCK_START = /^(>\s?|[-*+]\s+|\d{1,9}[.)]\s+)/;

function clean(line) {
  return line
    .replace(BLOCK_START, '')
    .replace(/!\[[^\]]*\]\([^)]*\)/g, '') // images
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1') // links → label
    .replace(/<[^>]*>/g, '') // inline HTML / JSX
    .replace(/\\([^\w\s])/g, '$1') // escapes
    .replace(/[*`]+/g, '') // emphasis and code markers
    .replace(/(^|[\s(])_{1,2}(?=\S)|(\S)_{1,2}(?=[\s.,;:!?)]|$)/g, '$1$2'); // _em_ / __strong__
}

/** Plain-text paragraphs (each an array of words) of a markdown passage. */
export function paragraphs(md) {
  const out = [];
  let cur = [];
  let fence = false;
  const flush = () => (cur.length && out.push(cur.join(' ').split(/\s+/).filter(Boolean)), (cur = []));
  for (const raw of String(md ?? '').split(/\r\n?|\n/)) {
    const line = raw.trim();
    if (/^(```|~~~)/.test(line)) {
      fence = !fence; // code blocks are split into highlighted spans on the page: skip them
      flush();
    } else if (fence) continue;
    else if (!line || SKIP.test(line)) flush();
    else {
      if (BLOCK_START.test(line)) flush(); // a list item or quote is its own block
      const text = clean(line).trim();
      if (text) cur.push(text);
    }
  }
  flush();
  return out.filter((p) => p.length);
}

// Words → encoded term, without a punctuation-only last word ("—", "&").
const term = (words) => encodeTerm(words.join(' ').replace(/\s+[^\p{L}\p{N}\s]+$/u, ''));

/** The `text=` directive value for a passage, or '' when nothing usable is found. */
export function textDirective(passage) {
  const paras = paragraphs(passage);
  let i = paras.findIndex((p) => p.length >= MIN_WORDS);
  if (i < 0) i = 0;
  const words = paras[i];
  if (!words) return '';
  if (words.length <= MAX_WORDS) return term(words);
  if (i === paras.length - 1) return term(words.slice(0, MAX_WORDS));
  return term(words.slice(0, EDGE_WORDS)) + ',' + term(words.slice(-EDGE_WORDS));
}

/**
 * `url` with a text fragment for `passage` appended after its anchor, if any.
 * An existing text directive in `url` is replaced. Returns `url` unchanged when no directive
 * can be built.
 */
export function fragmentUrl(url, passage) {
  if (!url) return url;
  const d = textDirective(passage);
  if (!d) return url;
  const i = url.indexOf('#');
  const base = i < 0 ? url : url.slice(0, i);
  let anchor = i < 0 ? '' : url.slice(i + 1);
  const j = anchor.indexOf(':~:');
  if (j >= 0) anchor = anchor.slice(0, j);
  return `${base}#${anchor}:~:text=${d}`;
}
