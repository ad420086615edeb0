// The author's view of the page (widget-insights.js, loaded only with ?textbook-chat=insights):
// the passages students highlighted here are marked in the text with how often, the headings
// of sections that answers cited carry their count, and a small panel lists the page's top
// questions. It needs the server's INSIGHTS_TOKEN, asked for once and kept in this browser; a
// token the server refuses is forgotten. Readers never load this file. The panel sits below the
// site's navbar.
import { h } from './dom.js';
import { occupied } from './corner.js';

const MARK = 'textbook-chat-passage';
const COUNT = 'textbook-chat-count';
const SKIP = 'script,style,noscript,textarea,input,select,#textbook-chat';

const PAGE_CSS = `
mark.${MARK} { background: #ffe58f; color: #1c1e21; border-radius: 2px; box-shadow: 0 0 0 1px #f0c000; }
mark.${MARK}[data-count]::after { content: attr(data-count); font: bold 11px/1 system-ui, sans-serif;
  background: #b45309; color: #fff; border-radius: 8px; padding: 2px 5px; margin-left: 3px; vertical-align: super; }
.${COUNT} { font: bold 12px/1 system-ui, sans-serif; background: #b45309; color: #fff; border-radius: 8px;
  padding: 2px 6px; margin-left: 8px; vertical-align: middle; }
`;
const PANEL_CSS = `
.author { position: fixed; top: 12px; inset-inline-end: 12px; z-index: 2147483646; width: min(340px, calc(100vw - 24px));
  max-height: calc(100vh - 120px); overflow: auto; background: var(--bg, #fff); color: var(--fg, #1c1e21);
  border: 1px solid #d0d7de; border-radius: 10px; box-shadow: 0 6px 24px rgba(0,0,0,.18); padding: 12px 14px;
  font: 14px/1.45 system-ui, sans-serif; }
.author h2 { font-size: 15px; margin: 0 0 8px; } .author h3 { font-size: 13px; margin: 10px 0 4px; }
.author ol { margin: 0; padding-inline-start: 20px; } .author li { margin: 2px 0; }
.author .n { font-weight: bold; } .author form { display: grid; gap: 6px; }
.author input { font: inherit; padding: 4px 6px; } .author button { font: inherit; cursor: pointer; }
.author .error { color: var(--danger); margin: 0; } .author .row { display: flex; gap: 8px; margin-top: 10px; }
`;

const keyOf = (api) => `textbook-chat:insights:${api}`;
const storage = () => {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
};

/** @param {object} ctx  app.js's context: cfg, root, shadow */
export function mountInsights(ctx) {
  const { cfg, root, shadow } = ctx;
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(PANEL_CSS);
  shadow.adoptedStyleSheets = [...shadow.adoptedStyleSheets, sheet];
  const box = h('section', { class: 'author', id: 'tc-author', 'aria-label': 'Insights for the author' });
  root.append(box);
  // below the site's own bar at the top (a sticky or fixed navbar), never over it
  const clear = () => {
    const bars = occupied(ctx.host, innerWidth - 352, 2, innerWidth - 12, 72).filter((r) => r.top < 40);
    box.style.top = Math.max(12, ...bars.map((r) => r.bottom + 8)) + 'px';
    box.style.maxHeight = `calc(100vh - ${box.style.top} - 100px)`;
  };
  clear();
  addEventListener('resize', clear);
  const key = keyOf(cfg.api);

  const ask = (message) => {
    const input = h('input', { id: 'tc-author-token', type: 'password', autocomplete: 'current-password', required: true });
    box.replaceChildren(
      h('h2', {}, 'Insights for the author'),
      h('form', {
        onsubmit: (e) => {
          e.preventDefault();
          storage()?.setItem(key, input.value.trim());
          load();
        },
      }, h('label', { for: 'tc-author-token' }, 'The insights token'), input,
      message ? h('p', { class: 'error', role: 'alert' }, message) : null,
      h('button', { type: 'submit' }, 'Show'))
    );
    input.focus();
  };

  async function load() {
    const token = storage()?.getItem(key);
    if (!token) return ask();
    const query = new URLSearchParams({ url: location.href, since: 'all' });
    if (cfg.bookId && cfg.bookId !== 'default') query.set('book_id', cfg.bookId);
    let response;
    try {
      response = await fetch(`${cfg.api}/insights/page?${query}`, { headers: { Authorization: `Bearer ${token}` } });
    } catch {
      return ask('The chat server did not answer.');
    }
    if (response.status === 401 || response.status === 403) {
      storage()?.removeItem(key);
      return ask('That is not the insights token.');
    }
    if (!response.ok) return ask(`The chat server answered ${response.status}.`);
    show(await response.json());
  }

  function show(data) {
    const pageSheet = new CSSStyleSheet();
    pageSheet.replaceSync(PAGE_CSS);
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, pageSheet];
    const found = data.passages.filter((p) => markPassage(p));
    for (const s of data.sections) badgeSection(s);
    box.replaceChildren(
      h('h2', {}, 'Students on this page'),
      h('p', {}, `${data.passages.length} highlighted passage(s), ${found.length} marked in the text.`),
      h('h3', {}, 'Top questions'),
      data.questions.length
        ? h('ol', { id: 'tc-author-questions' }, data.questions.map((q) => h('li', {}, h('span', { class: 'n' }, `${q.times}× `), q.question)))
        : h('p', {}, 'No question was asked on this page yet.'),
      h('div', { class: 'row' },
        h('button', { type: 'button', onclick: () => box.remove() }, 'Close'),
        h('button', { type: 'button', onclick: () => (storage()?.removeItem(key), box.remove()) }, 'Forget the token'))
    );
  }

  load();
}

/** Wrap the passage's text on the page in <mark>s (the last one shows the count). */
function markPassage(passage) {
  const wanted = squeeze(passage.text);
  if (wanted.length < 8) return false;
  const { nodes, text, at } = pageText();
  const start = text.indexOf(wanted);
  if (start < 0) return false;
  const [first, from] = at[start];
  const [last, lastChar] = at[start + wanted.length - 1];
  const title = `${passage.times} student question(s) about this passage:\n` + passage.questions.join('\n');
  let mark = null;
  for (let i = last; i >= first; i--) {
    const node = nodes[i];
    const s = i === first ? from : 0;
    const e = i === last ? lastChar + 1 : node.data.length;
    if (s >= e) continue;
    const middle = node.splitText(s);
    middle.splitText(e - s);
    const m = h('mark', { class: MARK, title });
    middle.replaceWith(m);
    m.append(middle);
    if (!mark) (mark = m).setAttribute('data-count', `${passage.times}×`);
  }
  return !!mark;
}

/** The page's visible text without whitespace, and where each of its characters is. */
function pageText() {
  const nodes = [];
  let text = '';
  const at = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT, {
    acceptNode: (n) => (n.parentElement && !n.parentElement.closest(SKIP) ? NodeFilter.FILTER_ACCEPT : NodeFilter.FILTER_REJECT),
  });
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const k = nodes.push(node) - 1;
    const data = node.data;
    for (let i = 0; i < data.length; i++) {
      if (/\s/.test(data[i])) continue;
      text += data[i].toLowerCase();
      at.push([k, i]);
    }
  }
  return { nodes, text, at };
}

// A selection's text and the page's differ in spacing and line breaks only: compare without them.
const squeeze = (s) => String(s || '').replace(/\s+/g, '').toLowerCase();

function badgeSection(section) {
  const anchor = decodeURIComponent((section.url.split('#')[1] || '').split(':~:')[0]);
  const heading = anchor && document.getElementById(anchor);
  if (!heading || heading.querySelector(`.${COUNT}`)) return;
  heading.append(h('span', { class: COUNT, title: `cited in ${section.times} answer(s)` }, `${section.times}`));
}
