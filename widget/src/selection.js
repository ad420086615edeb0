// "Ask about this": a small button next to a text selection made in the page (not in the
// widget), whether made with a mouse, the keyboard (Shift+arrows, caret browsing) or a
// long-press on a touch screen: all of them end in `selectionchange`. The button lives in the
// widget's shadow root, positioned over the page with position: fixed.
//
// Only the page's main content is taken (data-content-selector, else Docusaurus's markdown, else
// <article>, else <main>): a selection that runs into the navigation, the panel or another widget is clipped to
// the content's part, and one over LONG characters is cut to its first paragraph.
import { h, editable } from './dom.js';

const MAX_CHARS = 8000; // the server's limit for selected_text
const LONG = 2000; // longer: only the first paragraph is taken
const MIN_CHARS = 2;
const SETTLE_MS = 200; // wait for the selection to settle (keyboard, touch handles)
const BLOCK = 'p,li,pre,blockquote,td,th,dd,dt,figcaption'; // a paragraph, as "first paragraph" means it
const CONTENT = ['.theme-doc-markdown', 'article', 'main', '[role=main]']; // Docusaurus's markdown, else the page's

const elementOf = (n) => (n.nodeType === 1 ? n : n.parentElement);
const blockOf = (n) => elementOf(n).closest(BLOCK) || elementOf(n);
const query = (sel, fn) => {
  try {
    return fn(sel);
  } catch {
    return null; // not a selector
  }
};

/**
 * The page's main content that holds `node` (or lies inside it, as in a selection of the whole
 * page), or with no node the first on the page; null when `node` is outside it.
 */
export function contentOf(node, selector) {
  for (const s of selector ? [selector] : CONTENT) {
    const found = query(s, (q) => {
      const first = document.querySelector(q);
      return node ? elementOf(node).closest(q) || (first && elementOf(node).contains(first) ? first : null) : first;
    });
    if (found) return found;
  }
  return null;
}

/** Shrink range `r` to its part inside range `c`; true if anything was cut. */
export function within(r, c) {
  let cut = false;
  if (r.compareBoundaryPoints(Range.START_TO_START, c) < 0) (r.setStart(c.startContainer, c.startOffset), (cut = true));
  if (r.compareBoundaryPoints(Range.END_TO_END, c) > 0) (r.setEnd(c.endContainer, c.endOffset), (cut = true));
  return cut;
}

/**
 * What "Ask about this" takes from the page's selection: {text, language, cut, range}, or null.
 * @param {Element} host  the widget (a selection reaching into it is clipped out)
 * @param {string} selector  data-content-selector
 * @param {{y: number, over: boolean}|null} pointer  where a mouse drag ended, and whether over the widget
 */
export function pageSelection(host, selector, pointer) {
  const sel = document.getSelection();
  if (!sel || sel.isCollapsed) return null;
  const { anchorNode: a, anchorOffset: at, focusNode: f } = sel;
  const box = contentOf(a, selector) || contentOf(f, selector) || contentOf(null, selector) || document.body;
  let r = sel.getRangeAt(0).cloneRange();
  const c = document.createRange();
  let whole;
  if ((host.contains(f) || (pointer && pointer.over)) && box.contains(a)) {
    // A drag that ended over the widget: the browser puts the selection's end at the widget's
    // element (first in <body>) or next to it. Keep the paragraph it started in, from there
    // toward the pointer.
    c.selectNodeContents(blockOf(a));
    pointer && pointer.y < c.getBoundingClientRect().top ? c.setEnd(a, at) : c.setStart(a, at);
    r = c;
  } else {
    c.selectNodeContents(box);
    whole = !within(r, c);
  }
  if (r.collapsed || r.intersectsNode(host)) return null;
  let text = selectedText(whole && sel, r);
  let cut = text.length > LONG;
  if (cut) {
    const s = r.startContainer;
    c.selectNodeContents((s.nodeType === 3 && s.parentElement.closest(BLOCK)) || [...box.querySelectorAll(BLOCK)].find((x) => r.intersectsNode(x)) || box);
    within(r, c);
    text = selectedText(null, r);
  }
  return text.length < MIN_CHARS ? null : { text: text.slice(0, MAX_CHARS), language: selectedLanguage(r), cut, range: r };
}

/**
 * @param {Element} host  the widget's host element (selections touching it are ignored)
 * @param {Element} root  where the button goes (inside the shadow root)
 * @param {string} label  the button's text
 * @param {(sel: {text, language, cut}) => void} onAsk
 * @param {{contentSelector?: string, selection?: string}} cfg  no button with selection "off"
 * @returns {{current(): object|null}}  the selection while the button is shown (or, without a
 *   button, the page's selection), else null
 */
export function watchSelection(host, root, label, onAsk, cfg = {}) {
  let shown = null; // what the button asks about
  let timer = 0;
  let pointerDown = false;
  let fromWidget = false;
  let pointer = null; // where the last mouse drag ended
  const off = cfg.selection === 'off';
  const read = () => pageSelection(host, cfg.contentSelector, pointer);

  const btn = h(
    'button',
    {
      id: 'tc-ask',
      class: 'ask',
      type: 'button',
      hidden: true,
      onmousedown: (e) => e.preventDefault(), // keep the page selection
      onclick: () => {
        const t = fresh();
        hide();
        if (t) onAsk(t);
      },
    },
    label
  );
  if (!off) root.append(btn);

  function hide() {
    btn.hidden = true;
  }

  function place() {
    const rects = shown ? shown.range.getClientRects() : [];
    const r = rects[rects.length - 1]; // the end of the selection
    if (!r) return hide();
    const w = btn.offsetWidth;
    const hgt = btn.offsetHeight;
    const x = Math.max(8, Math.min(r.right - w / 2, innerWidth - w - 8));
    let y = r.bottom + 8;
    if (y + hgt > innerHeight - 8) y = Math.max(8, r.top - hgt - 8);
    btn.style.left = x + 'px';
    btn.style.top = y + 'px';
  }

  function check() {
    // Focus on the widget itself (e.g. the bubble) does not hide it: a keyboard user selects,
    // then tabs to the button.
    const s = pointerDown || fromWidget || editable(document.activeElement) ? null : read();
    if (!s) {
      if (!pointerDown) hide();
      return;
    }
    shown = s;
    btn.hidden = off;
    place();
  }

  const later = (ms) => (clearTimeout(timer), (timer = setTimeout(check, ms)));
  // The selection as made now, even if it changed less than SETTLE_MS ago (e.g. a keyboard user
  // pressing Enter right after Shift+arrows). A collapsed selection (a tap on a touch screen can
  // collapse it just before the click) keeps what was last shown.
  function fresh() {
    const sel = document.getSelection();
    if (timer && sel && !sel.isCollapsed) clearTimeout(timer), check();
    timer = 0;
    return shown;
  }
  // Hiding also waits for the selection to settle: on touch screens, tapping the button can
  // collapse the selection just before the click arrives.
  document.addEventListener('selectionchange', () => later(SETTLE_MS));
  document.addEventListener('pointerdown', (e) => {
    // Only a mouse drag defers the button; touch selections settle through selectionchange.
    pointerDown = e.pointerType === 'mouse' && e.button === 0;
    fromWidget = e.composedPath().includes(host);
    pointer = null;
  });
  document.addEventListener('pointerup', (e) => {
    // a drag from the page that ended over the widget (not a click on it)
    if (pointerDown) (pointerDown = false), (pointer = { y: e.clientY, over: !fromWidget && e.composedPath().includes(host) }), later(10);
  });
  document.addEventListener('keydown', (e) => e.key === 'Escape' && hide());
  addEventListener('scroll', () => !btn.hidden && place(), { passive: true, capture: true });

  return { current: () => (off ? read() : btn.hidden ? null : fresh()) };
}

const LANGUAGE = /(?:^|\s)language-([\w#+.-]+)/;

/**
 * The programming language of the code block an element is in, as renderers of fenced code
 * mark it: a `language-xxx` class on the <pre>, its <code> or the block's container
 * (Docusaurus, mdBook, markdown-it); '' when the element is not in a code block.
 * @param {{tagName: string, className?: string, parentElement?: object}|null} el
 */
export function codeLanguage(el) {
  let inCode = false;
  for (let e = el; e && e.tagName !== 'BODY' && e.tagName !== 'HTML'; e = e.parentElement) {
    inCode ||= e.tagName === 'PRE' || e.tagName === 'CODE';
    const found = inCode && LANGUAGE.exec(typeof e.className === 'string' ? e.className : '');
    if (found) return found[1].toLowerCase();
    if (inCode && e.tagName !== 'PRE' && e.tagName !== 'CODE' && !/code/i.test(e.className || '')) break;
  }
  return '';
}

/** The language of the code block a selection starts in, or of the first one it holds. */
function selectedLanguage(range) {
  const start = range.startContainer;
  const own = codeLanguage(start.nodeType === 1 ? start : start.parentElement);
  if (own) return own;
  const inner = range.cloneContents().querySelector('pre code, pre');
  return inner ? codeLanguage(inner.querySelector('code') || inner) : '';
}

/**
 * The selection as text, with formulas rendered by KaTeX turned back into their TeX
 * (`$…$`, `$$…$$` for display math) instead of KaTeX's doubled MathML + HTML text. Without
 * `sel` (a range clipped from the selection), the range's own text, a line after each block.
 */
export function selectedText(sel, range) {
  const frag = range.cloneContents();
  const math = frag.querySelectorAll('.katex');
  if (!math.length && sel) return sel.toString().trim();
  for (const k of math) {
    const tex = k.querySelector('annotation[encoding="application/x-tex"]');
    const d = k.closest('.katex-display') ? '$$' : '$';
    k.replaceWith(tex ? d + tex.textContent.trim() + d : k.textContent);
  }
  for (const b of frag.querySelectorAll('p, li, div, h1, h2, h3, h4, pre, tr')) b.append('\n');
  return frag.textContent.replace(/\n{3,}/g, '\n\n').trim();
}
