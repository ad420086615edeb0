// "Ask about this": a small button next to a text selection made in the page (not in the
// widget), whether made with a mouse, the keyboard (Shift+arrows, caret browsing) or a
// long-press on a touch screen: all of them end in `selectionchange`. The button lives in the
// widget's shadow root, positioned over the page with position: fixed.
import { h, editable } from './dom.js';

const MAX_CHARS = 8000; // the server's limit for selected_text
const MIN_CHARS = 2;
const SETTLE_MS = 200; // wait for the selection to settle (keyboard, touch handles)

/**
 * @param {Element} host  the widget's host element (selections touching it are ignored)
 * @param {Element} root  where the button goes (inside the shadow root)
 * @param {string} label  the button's text
 * @param {(text: string) => void} onAsk
 * @returns {{current(): string}}  the selected text while the button is shown, else ''
 */
export function watchSelection(host, root, label, onAsk) {
  let text = '';
  let language = ''; // the code block's language when the selection is code
  let range = null;
  let timer = 0;
  let pointerDown = false;
  let fromWidget = false;

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
        onAsk(t, language);
      },
    },
    label
  );
  root.append(btn);

  function hide() {
    btn.hidden = true;
    range = null;
  }

  function place() {
    const rects = range ? range.getClientRects() : [];
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
    const sel = document.getSelection();
    const r = sel && !sel.isCollapsed && sel.rangeCount ? sel.getRangeAt(0) : null;
    const t = r ? selectedText(sel, r) : '';
    // Focus on the widget itself (e.g. the bubble) does not hide it: a keyboard user selects,
    // then tabs to the button.
    if (pointerDown || fromWidget || t.length < MIN_CHARS || r.intersectsNode(host) || editable(document.activeElement)) {
      if (!pointerDown) hide();
      return;
    }
    text = t.length > MAX_CHARS ? t.slice(0, MAX_CHARS) : t;
    language = selectedLanguage(r);
    range = r;
    btn.hidden = false;
    place();
  }

  const later = (ms) => (clearTimeout(timer), (timer = setTimeout(check, ms)));
  // The text as selected now, even if the selection changed less than SETTLE_MS ago (e.g. a
  // keyboard user pressing Enter right after Shift+arrows). A collapsed selection (a tap on
  // a touch screen can collapse it just before the click) keeps the text last shown.
  function fresh() {
    const sel = document.getSelection();
    if (timer && sel && !sel.isCollapsed) clearTimeout(timer), check();
    timer = 0;
    return text;
  }
  // Hiding also waits for the selection to settle: on touch screens, tapping the button can
  // collapse the selection just before the click arrives.
  document.addEventListener('selectionchange', () => later(SETTLE_MS));
  document.addEventListener('pointerdown', (e) => {
    // Only a mouse drag defers the button; touch selections settle through selectionchange.
    pointerDown = e.pointerType === 'mouse' && e.button === 0;
    fromWidget = e.composedPath().includes(host);
  });
  document.addEventListener('pointerup', () => {
    if (pointerDown) (pointerDown = false), later(10);
  });
  document.addEventListener('keydown', (e) => e.key === 'Escape' && hide());
  addEventListener('scroll', () => range && place(), { passive: true, capture: true });

  return { current: () => (btn.hidden ? '' : fresh()), language: () => (btn.hidden ? '' : language) };
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
 * (`$…$`, `$$…$$` for display math) instead of KaTeX's doubled MathML + HTML text.
 */
export function selectedText(sel, range) {
  const frag = range.cloneContents();
  const math = frag.querySelectorAll('.katex');
  if (!math.length) return sel.toString().trim();
  for (const k of math) {
    const tex = k.querySelector('annotation[encoding="application/x-tex"]');
    const d = k.closest('.katex-display') ? '$$' : '$';
    k.replaceWith(tex ? d + tex.textContent.trim() + d : k.textContent);
  }
  for (const b of frag.querySelectorAll('p, li, div, h1, h2, h3, h4, pre, tr')) b.append('\n');
  return frag.textContent.replace(/\n{3,}/g, '\n\n').trim();
}
