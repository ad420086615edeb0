// Practice in the panel: the "Hints first" switch (remembered), "Another hint" and "Show me the
// answer" under a hint, and a quiz's cards, whose code (quiz-cards.js, widget-quiz.js) is loaded
// the first time a quiz shows: the panel every reader loads stays small.
import { h } from './dom.js';
import { toDom } from './render.js';
import { parse } from './markdown.js';

export const ANOTHER_HINT = 'another hint';
export const SHOW_ANSWER = 'show me the answer';
const EN = { hintsFirst: 'Hints first', anotherHint: 'Another hint', showAnswer: 'Show me the answer' };
const say = (t, key) => (t && t(key) !== key ? t(key) : EN[key]);
const CSS = '.tutor{display:flex;gap:6px;font-size:13px;color:var(--muted);padding-inline:8px}.hint-actions{display:flex;gap:6px}';

let sheet = null;
function adopt(root) {
  if (!root || !('adoptedStyleSheets' in root) || typeof CSSStyleSheet === 'undefined') return;
  if (!sheet) (sheet = new CSSStyleSheet()), sheet.replaceSync(CSS);
  if (!root.adoptedStyleSheets.includes(sheet)) root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
}
const later = (el) => (setTimeout(() => adopt(el.getRootNode()), 0), el);

const storage = () => {
  try {
    return globalThis.localStorage || null;
  } catch {
    return null;
  }
};
export const progressKey = (origin, bookId) => `textbook-chat:progress:v1:${origin}:${bookId}`;
export const tutorKey = (origin) => `textbook-chat:tutor:v1:${origin}`;
/** Is "Hints first" on for this site? */
export const tutorOn = (origin = globalThis.location?.origin, store = storage()) => {
  try {
    return store?.getItem(tutorKey(origin)) === '1';
  } catch {
    return false;
  }
};

/** The "Hints first" switch, remembered per site in this browser. */
export function tutorSwitch(t, origin = globalThis.location?.origin, store = storage()) {
  const box = h('input', {
    type: 'checkbox',
    role: 'switch',
    id: 'tc-tutor',
    onchange: () => {
      try {
        store?.setItem(tutorKey(origin), box.checked ? '1' : '0');
      } catch {
        /* not remembered */
      }
    },
  });
  box.checked = tutorOn(origin, store);
  return later(h('label', { class: 'tutor' }, box, say(t, 'hintsFirst')));
}

/** "Another hint" and "Show me the answer" under a hint. */
export const hintActions = (act, t) =>
  later(
    h(
      'div',
      { class: 'hint-actions' },
      h('button', { type: 'button', class: 'btn hint-more', onclick: () => act.ask(ANOTHER_HINT) }, say(t, 'anotherHint')),
      h('button', { type: 'button', class: 'btn hint-answer', onclick: () => act.ask(SHOW_ANSWER) }, say(t, 'showAnswer'))
    )
  );

/** What an answer that posed a quiz shows above its cards: its first paragraph (the title). */
export const quizHead = (text) => String(text || '').split(/\n\s*\n/)[0];

let loading = null;
/** The quiz's cards, in a box filled once widget-quiz.js has loaded (main.js names its URL). */
export function quizBox(m, act, t) {
  const box = h('div', { class: 'quiz-box' });
  const api = globalThis.textbookChat || {};
  loading ||= new Promise((done, fail) => {
    if (api._quiz) return done(api._quiz);
    const s = document.createElement('script');
    s.src = api._partUrl ? api._partUrl('quiz') : '';
    s.async = true;
    s.onload = () => (api._quiz ? done(api._quiz) : fail(new Error('quiz part')));
    s.onerror = () => ((loading = null), fail(new Error('quiz part')));
    document.head.append(s);
  });
  loading.then(
    (part) => box.replaceChildren(part.quizCards(m, { ...act, render: (text) => toDom(parse(text), [], act.link) }, t, act.progress)),
    () => box.replaceChildren(h('p', { class: 'err' }, '⚠'))
  );
  return box;
}
