// One conversation message as DOM. Bot messages repaint as their state changes:
// streaming → done | refused | stopped | error.
import { h, icon, iconButton } from './dom.js';
import { toDom } from './render.js';
import { sourceList } from './source-list.js';
import { parse } from './markdown.js';
import { readAloud } from './voice.js';
import * as I from './icons.js';
import { hintActions, quizBox } from './practice.js';

const QUOTE_CHARS = 160;

/**
 * The label under an answer: "Quoted from the book", "AI answer · <model>", or nothing when no
 * model wrote it (a refusal, an error, an older message without a generator).
 */
export const genLabel = (m, t) =>
  m.status === 'refused' || !m.generator || m.generator === 'none' ? '' : m.generator === 'extractive' ? t('quoted') : `${t('ai')} · ${m.generator}`;

/** A long passage cut at a word boundary, ending with an ellipsis. */
export function excerpt(text, max = QUOTE_CHARS) {
  const s = String(text).replace(/\s+/g, ' ').trim();
  if (s.length <= max) return s;
  const cut = s.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return (space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s.,;:!?—-]+$/, '') + '…';
}

export function userEl(m, t) {
  return h(
    'div',
    { class: 'msg user' },
    h('span', { class: 'sr' }, t('you')),
    m.quote && h('blockquote', { title: m.quote }, excerpt(m.quote)),
    m.quote && h('span', { class: 'mode' }, t(m.mode === 'exclusive' ? 'exclusive' : 'combined')),
    m.text
  );
}

/**
 * @param {object} m  {text, shown, status, sources, generator, id, rating, error, retryable, offer}
 * @param {{retry(m), rate(m, r): Promise<boolean>, wholeBook(m), answers(m)}} act
 * @param {(key: string) => string} t
 * @returns {{el, paint(), paintAnswer()}}
 */
export function botEl(m, act, t) {
  const el = h('article', { class: 'msg bot' });
  const answer = h('div', { class: 'answer' });

  // While streaming only the answer is re-rendered (a frame at a time, see chat.js), up to
  // `m.shown` characters. aria-busy makes screen readers wait and read the answer once.
  function paintAnswer() {
    const text = m.status === 'streaming' && m.shown != null ? m.text.slice(0, m.shown) : m.text;
    const typing =
      m.status === 'streaming' &&
      h('span', { class: 'typing' }, h('i', null), h('i', null), h('i', null), h('span', null, t('typing')));
    answer.replaceChildren(
      ...(text ? [toDom(parse(text), m.sources, act.link, m.generator === 'extractive')] : typing ? [typing] : [])
    );
  }

  function paint() {
    const st = m.status;
    el.className = `msg bot ${st}`;
    el.setAttribute('aria-busy', String(st === 'streaming'));
    paintAnswer();
    const end = st === 'done' || st === 'refused' || (st === 'stopped' && m.text);
    el.replaceChildren(
      ...[
        st === 'refused' && h('div', { class: 'label' }, icon(I.INFO), t('refused')),
        answer,
        st === 'stopped' && h('p', { class: 'note' }, t('stopped')),
        st === 'error' && h('p', { class: 'err' }, m.error),
        st === 'error' && m.retryable && h('button', { class: 'btn retry', onclick: () => act.retry(m) }, t('retry')),
        end && m.offer && h('button', { class: 'btn whole', onclick: () => act.wholeBook(m) }, t('wholeBook')),
        end && m.quizData && quizBox(m, act, t),
        end && m.quiz && h('button', { class: 'btn answers', onclick: () => act.answers(m) }, t('showAnswers')),
        end && m.hint && hintActions(act, t),
        sourceList(m, t),
        end && actions(m, act, t),
      ].filter(Boolean)
    );
  }

  paint();
  return { el, paint, paintAnswer };
}

function actions(m, act, t) {
  // The label doubles as feedback ("Copied", or "Copy failed" where the clipboard is
  // unavailable, e.g. on plain-http pages) and turns back after a moment.
  const label = (s) => (copy.setAttribute('aria-label', s), copy.classList.toggle('ok', s === t('copied')));
  const copy = iconButton({ class: 'icon copy' }, t('copy'), I.COPY, () =>
    Promise.resolve()
      .then(() => navigator.clipboard.writeText(m.text))
      .then(() => label(t('copied')), () => label(t('copyFailed')))
      .then(() => setTimeout(label, 1500, t('copy')))
  );

  // Thumbs need the server's message id. The feedback API has no "unrate", so a rating
  // can be changed but not removed; a failed request restores the previous state.
  const set = (r) => {
    m.rating = r;
    up.setAttribute('aria-pressed', r === 'up');
    down.setAttribute('aria-pressed', r === 'down');
  };
  const rate = (r) =>
    iconButton({ class: 'icon ' + r, 'aria-pressed': String(m.rating === r) }, t(r), I.THUMB, async () => {
      const prev = m.rating;
      if (prev !== r && (set(r), !(await act.rate(m, r)))) set(prev);
    });
  const up = m.id && rate('up');
  const down = m.id && rate('down');
  return h('div', { class: 'actions' }, h('span', { class: 'gen' }, genLabel(m, t)), readAloud(m, t), copy, up, down);
}
