// "Ask about this": a small button next to a text selection made in the page (not in the
// widget). It lives in the widget's shadow root, positioned over the page with position: fixed.
import { h, editable } from './dom.js';

const MAX_CHARS = 8000; // the server's limit for selected_text
const MIN_CHARS = 2;
const SETTLE_MS = 200; // wait for the selection to settle (keyboard, touch handles)

/**
 * @param {Element} host  the widget's host element (selections touching it are ignored)
 * @param {Element} root  where the button goes (inside the shadow root)
 * @param {(text: string) => void} onAsk
 * @returns {{current(): string}}  the selected text while the button is shown, else ''
 */
export function watchSelection(host, root, onAsk) {
  let text = '';
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
        const t = text;
        hide();
        onAsk(t);
      },
    },
    'Ask about this'
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
    const t = r ? sel.toString().trim() : '';
    const active = document.activeElement;
    if (pointerDown || fromWidget || t.length < MIN_CHARS || r.intersectsNode(host) || editable(active) || active === host) {
      if (!pointerDown) hide();
      return;
    }
    text = t.length > MAX_CHARS ? t.slice(0, MAX_CHARS) : t;
    range = r;
    btn.hidden = false;
    place();
  }

  const later = (ms) => (clearTimeout(timer), (timer = setTimeout(check, ms)));
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

  return { current: () => (btn.hidden ? '' : text) };
}
