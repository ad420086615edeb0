// A quiz as cards: choices as buttons, a text box for a short answer, each answer checked by the
// server and its feedback shown in place, a score at the end and "Try again" with the items
// missed; the reader's progress per page (quizzed, score) kept in this browser only.
// This part (widget-quiz.js) is loaded when a quiz first shows (practice.js); the panel lends it
// its markdown renderer (`act.render`), so it carries none of its own.
import { h } from './dom.js';

const EN = {
  quiz: 'Quiz',
  check: 'Check',
  yourAnswer: 'Your answer',
  correct: 'Correct',
  partly: 'Partly right',
  incorrect: 'Not quite',
  score: 'Score',
  partlyCount: 'partly',
  tryAgain: 'Try again with the ones missed',
  lastTime: 'Last time on this page',
  checking: 'Checking…',
};
/** A string of the panel's language when it has one, else English. */
const say = (t, key) => (t && t(key) !== key ? t(key) : EN[key]);

const CSS = `
.quiz { margin-top: 10px; display: flex; flex-direction: column; gap: 10px; }
.quiz .card { padding: 10px 12px; border: 1px solid var(--line); border-radius: 10px; list-style: none; }
.quiz ol { margin: 0; padding: 0; display: flex; flex-direction: column; gap: 10px; }
.quiz .q > * { margin: 0 0 .4em; }
.quiz .choices { display: flex; flex-direction: column; gap: 6px; }
.quiz .choice { text-align: start; padding: 6px 10px; border: 1px solid var(--line); border-radius: 8px; }
.quiz .choice:hover:not([disabled]) { background: var(--soft); }
.quiz .choice[aria-pressed=true] { border-color: var(--accent); }
.quiz .choice.right { border-color: #1a7f37; background: color-mix(in srgb, #1a7f37 12%, var(--bg)); }
.quiz .choice.wrong { border-color: var(--danger); }
.quiz textarea { width: 100%; min-height: 3.5em; box-sizing: border-box; padding: 6px 8px; border: 1px solid var(--line); border-radius: 8px; font: inherit; resize: vertical; }
.quiz .fb { margin-top: 6px; font-size: 14px; }
.quiz .fb > * { margin: 0 0 .4em; }
.quiz .verdict { font-weight: 600; }
.quiz .verdict.correct { color: #1a7f37; }
.quiz .verdict.incorrect { color: var(--danger); }
.quiz .score { margin: 0; font-weight: 600; }
`;
let sheet = null;
/** Rules adopted by the widget's shadow root once (no inline style: the host's CSP holds). */
export function adopt(root, css = CSS) {
  if (!root || !('adoptedStyleSheets' in root) || typeof CSSStyleSheet === 'undefined') return;
  if (!sheet) (sheet = new CSSStyleSheet()), sheet.replaceSync(css);
  if (!root.adoptedStyleSheets.includes(sheet)) root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
}

// --- progress, per page, in this browser only ------------------------------------------
const storage = () => {
  try {
    return globalThis.localStorage || null;
  } catch {
    return null;
  }
};
export function readProgress(key, store = storage()) {
  try {
    const v = JSON.parse(store?.getItem(key) || '{}');
    return v && typeof v === 'object' ? v : {};
  } catch {
    return {};
  }
}
/** One round done on a page: how often it was quizzed, and the last score. */
export function recordRound(key, page, score, total, store = storage()) {
  const all = readProgress(key, store);
  const was = all[page] || { quizzed: 0 };
  all[page] = { quizzed: was.quizzed + 1, score, total, at: new Date().toISOString() };
  try {
    store?.setItem(key, JSON.stringify(all));
  } catch {
    /* full or blocked: progress is a nicety */
  }
  return all[page];
}

// --- scoring ----------------------------------------------------------------------------------
/** {correct, partly, total} of a round, once every item of it has an answer (else null). */
export function scoreOf(state) {
  const round = state.round || [];
  const verdicts = round.map((n) => state.answers?.[n]?.verdict);
  if (!round.length || verdicts.some((v) => !v)) return null;
  return { correct: verdicts.filter((v) => v === 'correct').length, partly: verdicts.filter((v) => v === 'partly').length, total: round.length };
}
/** The items of a round not answered right: the next round's. */
export const missed = (state) => (state.round || []).filter((n) => state.answers?.[n]?.verdict !== 'correct');

/**
 * The quiz of an answer as cards. `m.quizData`: the server's `quiz`; `m.quizState` ({round,
 * answers}) is kept with the message. `act.check(quizId, n, text)` resolves with the server's
 * reply (its `feedback`, its `answer` text and `sources`); `act.save()` keeps the conversation.
 */
export function quizCards(m, act, t, progress = { key: '', store: storage() }) {
  const quiz = m.quizData;
  const state = (m.quizState ||= { round: quiz.items.map((i) => i.n), answers: {} });
  const el = h('section', { class: 'quiz', 'aria-label': say(t, 'quiz') });
  setTimeout(() => adopt(el.getRootNode()), 0);

  function verdictEl(a) {
    return h('p', null, h('span', { class: `verdict ${a.verdict}` }, say(t, a.verdict)));
  }

  function feedbackEl(a) {
    const box = h('div', { class: 'fb', role: 'status' });
    if (a) box.append(verdictEl(a), act.render(a.text || ''));
    return box;
  }

  async function answer(item, text, card) {
    const box = card.querySelector('.fb');
    box.replaceChildren(h('p', { class: 'note' }, say(t, 'checking')));
    card.querySelectorAll('button, textarea').forEach((c) => (c.disabled = true));
    let reply;
    try {
      reply = await act.check(quiz.id, item.n, text);
    } catch (e) {
      box.replaceChildren(h('p', { class: 'err' }, e.message || String(e)));
      card.querySelectorAll('button, textarea').forEach((c) => (c.disabled = false));
      return;
    }
    const f = reply.feedback || { verdict: 'incorrect', expected: '' };
    state.answers[item.n] = { verdict: f.verdict, expected: f.expected, text: reply.answer || '', said: text, sources: reply.sources || [] };
    const score = scoreOf(state);
    if (score && progress.key) recordRound(progress.key, quiz.page, score.correct, score.total, progress.store);
    act.save?.();
    paint();
  }

  function card(item) {
    const a = state.answers[item.n];
    const node = h('li', { class: 'card', 'data-n': item.n });
    const q = h('div', { class: 'q' }, h('span', { class: 'sr' }, `${item.n}. `), act.render(item.question));
    let body;
    if (item.kind === 'choice') {
      body = h(
        'div',
        { class: 'choices', role: 'group', 'aria-label': item.question.split('\n')[0] },
        item.choices.map((c, i) => {
          const letter = String.fromCharCode(65 + i);
          const mark = a ? (a.expected.startsWith(`${letter})`) ? 'right' : a.said === letter ? 'wrong' : '') : '';
          return h(
            'button',
            { type: 'button', class: `choice ${mark}`.trim(), 'aria-pressed': String(!!a && a.said === letter), disabled: !!a, onclick: () => answer(item, letter, node) },
            `${letter}) ${c}`
          );
        })
      );
    } else {
      const box = h('textarea', { 'aria-label': say(t, 'yourAnswer'), disabled: !!a });
      if (a) box.value = a.said;
      body = h(
        'div',
        null,
        box,
        !a && h('button', { type: 'button', class: 'btn check', onclick: () => box.value.trim() && answer(item, box.value.trim(), node) }, say(t, 'check'))
      );
    }
    node.append(q, body, feedbackEl(a));
    return node;
  }

  function paint() {
    const items = quiz.items.filter((i) => state.round.includes(i.n));
    const score = scoreOf(state);
    const before = progress.key && readProgress(progress.key, progress.store)[quiz.page];
    const again = score && missed(state).length;
    el.replaceChildren(
      ...[
        before && !score && h('p', { class: 'note' }, `${say(t, 'lastTime')}: ${before.score} / ${before.total}`),
        h('ol', null, items.map(card)),
        score &&
          h('p', { class: 'score', role: 'status' }, `${say(t, 'score')}: ${score.correct} / ${score.total}` + (score.partly ? ` (${score.partly} ${say(t, 'partlyCount')})` : '')),
        again &&
          h('button', {
            type: 'button',
            class: 'btn again',
            onclick: () => {
              state.round = missed(state);
              state.round.forEach((n) => delete state.answers[n]);
              act.save?.();
              paint();
              el.querySelector('.card button, .card textarea')?.focus();
            },
          }, say(t, 'tryAgain')),
      ].filter(Boolean)
    );
  }

  paint();
  return el;
}
