// DOM construction helpers. Everything is built with createElement / textContent /
// setAttribute: no HTML string parsing anywhere in the widget.
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

/** Is this element one where the reader types? */
export const editable = (el) => !!el && (el.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName));

