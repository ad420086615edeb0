// One conversation message as DOM. Bot messages repaint as their state changes:
// streaming → done | refused | stopped | error.
import { h, icon, iconButton, toDom } from './dom.js';
import { parse, safeUrl } from './markdown.js';
import * as I from './icons.js';

const genLabel = (g) => (!g ? '' : g === 'extractive' ? 'Quoted from the book' : `AI answer · ${g}`);

export function userEl(m) {
  return h(
    'div',
    { class: 'msg user' },
    h('span', { class: 'sr' }, 'You: '),
    m.quote && h('blockquote', { title: m.quote }, m.quote),
    m.text
  );
}

/**
 * @param {object} m  {text, status, sources, generator, id, rating, error, retryable}
 * @param {{retry(m), rate(m, r): Promise<boolean>}} act
 * @returns {{el, paint(), paintAnswer()}}
 */
export function botEl(m, act) {
  const el = h('article', { class: 'msg bot' });
  const answer = h('div', { class: 'answer' });

  // While streaming only the answer is re-rendered (a frame at a time, see chat.js).
  // aria-busy makes screen readers wait and read the finished answer once.
  function paintAnswer() {
    const typing = m.status === 'streaming' && h('span', { class: 'typing' }, 'Searching the book…');
    answer.replaceChildren(...(m.text ? [toDom(parse(m.text), m.sources)] : typing ? [typing] : []));
  }

  function paint() {
    const st = m.status;
    el.className = `msg bot ${st}`;
    el.setAttribute('aria-busy', String(st === 'streaming'));
    paintAnswer();
    const end = st === 'done' || st === 'refused' || (st === 'stopped' && m.text);
    el.replaceChildren(
      ...[
        st === 'refused' && h('div', { class: 'label' }, icon(I.INFO), 'Not covered in the book'),
        answer,
        st === 'stopped' && h('p', { class: 'note' }, 'Stopped.'),
        st === 'error' && h('p', { class: 'err' }, m.error),
        st === 'error' && m.retryable && h('button', { class: 'btn retry', onclick: () => act.retry(m) }, 'Retry'),
        sources(m),
        end && actions(m, act),
      ].filter(Boolean)
    );
  }

  paint();
  return { el, paint, paintAnswer };
}

function sources(m) {
  if (!m.sources || !m.sources.length) return null;
  return h(
    'div',
    { class: 'sources' },
    h('h3', null, m.status === 'refused' ? 'Nearest sections' : 'Sources'),
    h(
      'ol',
      null,
      m.sources.map((s) => {
        const href = safeUrl(s.href);
        const title = s.full ? { title: s.full } : null;
        return h('li', title, href ? h('a', { class: 'source', href }, s.label) : s.label);
      })
    )
  );
}

function actions(m, act) {
  // The label doubles as feedback ("Copied", or "Copy failed" where the clipboard is
  // unavailable, e.g. on plain-http pages) and turns back after a moment.
  const label = (t) => copy.setAttribute('aria-label', t);
  const copy = iconButton({ class: 'icon copy' }, 'Copy answer', I.COPY, () =>
    Promise.resolve()
      .then(() => navigator.clipboard.writeText(m.text))
      .then(() => label('Copied'), () => label('Copy failed'))
      .then(() => setTimeout(label, 1500, 'Copy answer'))
  );

  // Thumbs need the server's message id. The feedback API has no "unrate", so a rating
  // can be changed but not removed; a failed request restores the previous state.
  const set = (r) => {
    m.rating = r;
    up.setAttribute('aria-pressed', r === 'up');
    down.setAttribute('aria-pressed', r === 'down');
  };
  const rate = (r, label) =>
    iconButton({ class: 'icon ' + r, 'aria-pressed': String(m.rating === r) }, label, I.THUMB, async () => {
      const prev = m.rating;
      if (prev !== r && (set(r), !(await act.rate(m, r)))) set(prev);
    });
  const up = m.id && rate('up', 'Helpful');
  const down = m.id && rate('down', 'Not helpful');
  return h('div', { class: 'actions' }, h('span', { class: 'gen' }, genLabel(m.generator)), copy, up, down);
}
