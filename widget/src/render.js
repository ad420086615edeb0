// Markdown tree → DOM nodes (createElement/textContent only; math through math.js).
import { h } from './dom.js';
import { safeUrl } from './markdown.js';
import { texToMathML } from './math.js';
import { fragmentUrl } from './fragment.js';

const MATHML = 'http://www.w3.org/1998/Math/MathML';

/** math.js tree → MathML elements (namespaced createElementNS; text through textContent). */
export function mathDom(n) {
  const el = document.createElementNS(MATHML, n.tag);
  for (const k in n.attrs) el.setAttribute(k, n.attrs[k]);
  if (n.text != null) el.textContent = n.text;
  else for (const c of n.children) el.append(mathDom(c));
  return el;
}

const TAGS = new Set(['p', 'br', 'strong', 'em', 'code', 'pre', 'ul', 'ol', 'li', 'a', 'table', 'tr', 'th', 'td']);

/**
 * Markdown tree (markdown.js) → DocumentFragment. `[n]` links to `sources[n-1].href`, like
 * the sources list (same tab, so the conversation and panel come back on the cited page),
 * or stays plain text if there is no such source. Links from the answer open in a new tab.
 * Unknown tags are dropped with their text kept; links are re-validated here, after `link` (the
 * same page on the reader's site, site-url.js). `quoted`: the answer quotes the book (the
 * extractive generator), so a citation links to the words it ends, not to its passage's
 * first paragraph: a passage holds several, and the quote is often not the first.
 */
export function toDom(nodes, sources = [], link = (u) => u, quoted = false) {
  const all = (list) => {
    const frag = document.createDocumentFragment();
    let before = ''; // the paragraph's words since its last citation: what the next one cites
    for (const c of list) frag.append(node(c, before)), (before = c.tag === 'cite' ? '' : before + textOf(c));
    return frag;
  };
  function node(n, said) {
    if (typeof n === 'string') return document.createTextNode(n);
    if (n.tag === 'math') {
      const m = mathDom(texToMathML(n.tex, n.display));
      m.setAttribute('alttext', n.tex); // what a screen reader without MathML support reads
      return m;
    }
    if (n.tag === 'cite') {
      const s = sources[n.n - 1];
      // a quote's words before it in its paragraph, else its passage's first paragraph
      const href = s && safeUrl(quoted && s.url && said.trim() ? fragmentUrl(s.url, said) : s.href);
      if (!href) return document.createTextNode(`[${n.n}]`);
      return h('a', { class: 'cite', href, title: s.full || s.label, 'aria-label': `[${n.n}] ${s.label}` }, String(n.n));
    }
    const href = n.tag === 'a' && safeUrl(link(n.href));
    if (!TAGS.has(n.tag) || (n.tag === 'a' && !href)) return all(n.children || []);
    const start = n.tag === 'ol' && n.start > 0 && String(n.start | 0);
    return h(
      n.tag,
      href ? { href, target: '_blank', rel: 'noopener noreferrer nofollow' } : { start },
      all(n.children || []),
      n.nested && node(n.nested, '') // a list inside a list item
    );
  }
  return all(nodes);
}

/** The text a tree shows (math as nothing: its words are not the page's). */
const textOf = (n) => (typeof n === 'string' ? n : (n.children || []).map(textOf).join(''));
