// The sources under an answer: the ones it cites ("Sources", numbered as its [n] markers, in the
// order first cited); a passage retrieved but not quoted is not shown. A refusal lists its nearest
// sections.
import { h } from './dom.js';
import { safeUrl } from './markdown.js';

const FENCED = /```[\s\S]*?(?:```|$)|`[^`\n]*`/g; // code: `x[0]` is no marker
const MARKER = /\[(\d+)\](?!\()/g;

/** The source numbers an answer's text cites, in the order first cited. */
export function citedNumbers(text) {
  const found = [];
  for (const m of String(text || '').replace(FENCED, ' ').matchAll(MARKER)) {
    const n = Number(m[1]);
    if (!found.includes(n)) found.push(n);
  }
  return found;
}

function item(s, n) {
  const href = safeUrl(s.href);
  const title = s.full || null; // the whole breadcrumb path (sources.js)
  return h('li', { value: String(n) }, href ? h('a', { class: 'source', href, title }, s.label) : h('span', { title }, s.label));
}

/**
 * @param {object} m  a bot message: {text, status, sources}
 * @param {(key: string) => string} t  the reader's language
 */
export function sourceList(m, t) {
  const all = m.sources || [];
  if (!all.length) return null;
  const numbered = all.map((s, i) => [s, i + 1]);
  const cited = m.status === 'refused' ? [] : citedNumbers(m.text).filter((n) => n <= all.length);
  // while an answer streams its first marker is not out yet: the passages are listed until it is
  const shown = cited.length ? cited.map((n) => [all[n - 1], n]) : numbered;
  return h('div', { class: 'sources' }, h('h3', null, t(m.status === 'refused' ? 'nearest' : 'sources')),
    h('ol', null, shown.map(([s, n]) => item(s, n))));
}
