// Cited passages stay marked. A citation link carries a text fragment (fragment.js), which the
// browser highlights on the cited page; a site that re-renders its article after load (a custom
// Root, a theme wrapper, client-side auth) drops that highlight. So on a citation click the widget
// remembers the link (session storage), and on the cited page marks the passage itself with the
// CSS Custom Highlight API (`textbook-chat-cited`; <mark>s where the API is missing) as soon as
// the content has it, and again whenever the page changes in the next SETTLE_MS. The reader's
// next click clears it.
import { contentOf, within } from './selection.js';

const KEY = 'textbook-chat:cited';
const NAME = 'textbook-chat-cited';
const SETTLE_MS = 6000;
const CSS_TEXT = `::highlight(${NAME}),mark.${NAME}{background:#ffe082;color:#1c1e21}`;

const squeeze = (s) => s.replace(/\s+/g, '').toLowerCase();

/** [textStart, textEnd?] of a link's text directive, decoded; [] when it has none. */
export function directive(href) {
  try {
    return String(href).split(':~:text=')[1].split('&')[0].split(',').map(decodeURIComponent);
  } catch {
    return [];
  }
}

/**
 * Where the passage `[start, end]` is in `text` (as `squeeze` makes it: no whitespace, lower
 * case): [from, to), or null. The end counts only within `span` characters of the start.
 */
export function locate(text, start, end, span = 3000) {
  const s = squeeze(start);
  const i = s ? text.indexOf(s) : -1;
  const e = end ? squeeze(end) : '';
  const j = e ? text.indexOf(e, i + s.length) : i + s.length;
  return i < 0 || j < 0 || j - i > span ? null : [i, j + e.length];
}

/** A range over the passage `[start, end]` in the text of `root`, or null. */
function find(root, start, end) {
  const at = []; // for each character of `text`: [its text node, its offset there]
  let text = '';
  const walk = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let n; (n = walk.nextNode()); )
    for (let i = 0; i < n.data.length; i++) if (/\S/.test(n.data[i])) (text += n.data[i].toLowerCase()), at.push([n, i]);
  const found = locate(text, start, end);
  if (!found) return null;
  const r = document.createRange();
  const [n, i] = at[found[1] - 1];
  r.setStart(...at[found[0]]);
  r.setEnd(n, i + 1);
  return r;
}

/** @param {Element} host  the widget  @param {string} selector  data-content-selector */
export function watchCitations(host, selector) {
  // store(): the link kept; store(href) keeps one, store('') forgets it
  const store = (v) => {
    try {
      if (v != null) v ? sessionStorage.setItem(KEY, v) : sessionStorage.removeItem(KEY);
      return sessionStorage.getItem(KEY);
    } catch {
      return null; // storage blocked: the browser's own highlight only
    }
  };
  const here = (href) => {
    const u = new URL(href, location.href);
    return u.origin + u.pathname.replace(/\/$/, '') === location.origin + location.pathname.replace(/\/$/, '');
  };
  let observer = null;
  let marks = [];
  let shown = false;
  // <mark>s change the page's DOM: not before the page has loaded and settled (a site that
  // hydrates its server-rendered HTML, as Docusaurus does, must find it as it sent it; on a busy
  // machine its hydration ran past half a second after load)
  let settled = !!window.Highlight;
  let followed = '';
  const settle = () => setTimeout(() => (settled = true) && followed && mark(followed), 1e3);
  document.readyState === 'complete' ? settle() : addEventListener('load', settle);

  function clear() {
    if (window.Highlight) CSS.highlights.delete(NAME);
    for (const m of marks) m.replaceWith(...m.childNodes);
    marks = [];
    observer && observer.disconnect();
    followed = store('');
  }

  function mark(href) {
    // not once cleared: a re-render's mark, 50 ms behind, may come after the click that cleared
    const r = settled && href == followed && !(marks[0] && marks[0].isConnected) && find(contentOf(null, selector) || document.body, ...directive(href));
    if (!r) return;
    if (window.Highlight) CSS.highlights.set(NAME, new Highlight(r));
    else {
      // a <mark> around each text node's part of the passage (the last first, so the others hold)
      const walk = document.createTreeWalker(r.commonAncestorContainer, NodeFilter.SHOW_TEXT);
      const parts = [];
      for (let n = walk.currentNode; n; n = walk.nextNode())
        if (n.nodeType === 3 && r.intersectsNode(n)) {
          const p = document.createRange();
          p.selectNodeContents(n);
          within(p, r);
          parts.unshift(p);
        }
      marks = parts.map((p) => {
        const m = document.createElement('mark');
        m.className = NAME;
        p.surroundContents(m);
        return m;
      });
    }
    // scrolled to where the browser did not (the passage was not on the page yet at load)
    const box = r.getBoundingClientRect();
    if (!shown && (box.bottom < 0 || box.top > innerHeight)) r.startContainer.parentElement.scrollIntoView({ block: 'center' });
    shown = true;
  }

  function follow(href) {
    if (!here(href)) return;
    clear();
    if (!(followed = store(href))) return;
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(CSS_TEXT);
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
    mark(href);
    // The article may be rendered (again) after load: mark the passage in what replaced it.
    let timer = 0;
    const watch = (observer = new MutationObserver(() => (clearTimeout(timer), (timer = setTimeout(mark, 50, href)))));
    watch.observe(document.body, { childList: true, subtree: true, characterData: true });
    setTimeout(() => watch.disconnect(), SETTLE_MS);
    addEventListener('pointerdown', clear, { once: true, capture: true });
  }

  // A citation followed from the panel (an ordinary click: a new tab keeps this page as it is).
  document.addEventListener('click', (e) => {
    const a = e.composedPath().includes(host) && e.composedPath()[0].closest('a.cite, a.source');
    if (a && !(e.ctrlKey || e.metaKey || e.shiftKey || e.button) && directive(a.href).length) {
      store(a.href);
      setTimeout(follow, 0, a.href); // a passage of this very page is marked now, another page's when it loads
    }
  });
  const cited = store();
  if (cited) here(cited) ? follow(cited) : store('');
}
