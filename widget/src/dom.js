// DOM construction helpers. Everything is built with createElement / textContent /
// setAttribute: no HTML string parsing anywhere in the widget.
import { safeUrl } from './markdown.js';

/**
 * h('button', {class: 'x', 'aria-label': 'Close', onclick: fn}, child, 'text', ...)
 * Attributes with null/false values are skipped; `on*` keys become listeners; strings become
 * text nodes (never HTML).
 */
export function h(tag, attrs, ...kids) {
  const el = document.createElement(tag);
  for (const k in attrs) {
    const v = attrs[k];
    if (v == null || v === false) continue;
    if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v === true ? '' : v);
  }
  el.append(...kids.flat().filter((k) => k != null && k !== false));
  return el;
}

/** A 24×24 stroked SVG icon, hidden from assistive technology (buttons carry the labels). */
export function icon(d) {
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('aria-hidden', 'true');
  const path = document.createElementNS(ns, 'path');
  path.setAttribute('d', d);
  svg.append(path);
  return svg;
}

/** An icon-only button; the label is both its accessible name and its tooltip. */
export const iconButton = (attrs, label, path, onclick) =>
  h('button', { type: 'button', 'aria-label': label, title: label, onclick, ...attrs }, icon(path));

const TAGS = new Set(['p', 'br', 'strong', 'em', 'code', 'pre', 'ul', 'ol', 'li', 'a']);

/** Is this element one where the reader types? */
export const editable = (el) => !!el && (el.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName));

/**
 * Markdown tree (markdown.js) → DocumentFragment. `[n]` links to `sources[n-1].href`, like
 * the sources list (same tab, so the conversation and panel come back on the cited page),
 * or stays plain text if there is no such source. Links from the answer open in a new tab.
 * Unknown tags are dropped with their text kept; links are re-validated here.
 */
export function toDom(nodes, sources = []) {
  const frag = document.createDocumentFragment();
  for (const n of nodes) frag.append(node(n, sources));
  return frag;
}

function node(n, sources) {
  if (typeof n === 'string') return document.createTextNode(n);
  if (n.tag === 'cite') {
    const s = sources[n.n - 1];
    const href = s && safeUrl(s.href);
    if (!href) return document.createTextNode(`[${n.n}]`);
    return h('a', { class: 'cite', href, title: s.label, 'aria-label': `Source ${n.n}` }, String(n.n));
  }
  const href = n.tag === 'a' && safeUrl(n.href);
  if (!TAGS.has(n.tag) || (n.tag === 'a' && !href)) return toDom(n.children || [], sources);
  const el = document.createElement(n.tag);
  if (href) {
    el.setAttribute('href', href);
    el.setAttribute('target', '_blank');
    el.setAttribute('rel', 'noopener noreferrer nofollow');
  }
  if (n.tag === 'ol' && n.start > 0) el.setAttribute('start', String(n.start | 0));
  for (const c of n.children || []) el.append(node(c, sources));
  return el;
}
