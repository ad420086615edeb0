// Markdown tree → DOM nodes (createElement/textContent only; math through math.js).
import { h } from './dom.js';
import { safeUrl } from './markdown.js';
import { texToMathML } from './math.js';

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
 * same page on the reader's site, site-url.js).
 */
export function toDom(nodes, sources = [], link = (u) => u) {
  const frag = document.createDocumentFragment();
  for (const n of nodes) frag.append(node(n, sources, link));
  return frag;
}

function node(n, sources, link) {
  if (typeof n === 'string') return document.createTextNode(n);
  if (n.tag === 'math') {
    const m = mathDom(texToMathML(n.tex, n.display));
    m.setAttribute('alttext', n.tex); // what a screen reader without MathML support reads
    return m;
  }
  if (n.tag === 'cite') {
    const s = sources[n.n - 1];
    const href = s && safeUrl(s.href);
    if (!href) return document.createTextNode(`[${n.n}]`);
    return h('a', { class: 'cite', href, title: s.full || s.label, 'aria-label': `[${n.n}] ${s.label}` }, String(n.n));
  }
  const href = n.tag === 'a' && safeUrl(link(n.href));
  if (!TAGS.has(n.tag) || (n.tag === 'a' && !href)) return toDom(n.children || [], sources, link);
  const el = document.createElement(n.tag);
  if (href) {
    el.setAttribute('href', href);
    el.setAttribute('target', '_blank');
    el.setAttribute('rel', 'noopener noreferrer nofollow');
  }
  if (n.tag === 'ol' && n.start > 0) el.setAttribute('start', String(n.start | 0));
  for (const c of n.children || []) el.append(node(c, sources, link));
  if (n.nested) el.append(node(n.nested, sources, link)); // a list inside a list item
  return el;
}
