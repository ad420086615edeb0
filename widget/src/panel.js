// The chat dialog: header, message log with the page's suggested questions, question form
// with the optional quoted passage. Messages are rendered by message.js and added through
// `add`. The bubble (widget.js) opens and closes it.
import { h, icon, iconButton } from './dom.js';
import { pageQuestions } from './suggest.js';
import { courseQuestions } from './course.js';
import { micButton } from './voice.js';
import * as I from './icons.js';
import { tutorSwitch } from './practice.js';

/**
 * @param {object} ctx  from app.js: {cfg, t, title, root, bubble}
 * @param {{submit(question, quote, mode), stop(), reset(), openChange()}} on
 */
export function createPanel(ctx, on) {
  const { cfg, t, bubble } = ctx;
  let busy = false;
  let quote = null;
  let mode = cfg.selectionMode;

  const input = h('textarea', {
    id: 'tc-input',
    rows: 1,
    maxlength: 1000, // the server's limit for a question
    placeholder: t('placeholder'),
    'aria-label': t('question'),
    enterkeyhint: 'send',
  });
  const send = iconButton({ id: 'tc-send', class: 'send', type: 'submit' }, t('send'), I.SEND);
  const stop = iconButton({ id: 'tc-stop', class: 'send stop', hidden: true }, t('stop'), I.STOP, () => on.stop());

  const quoteText = h('blockquote');
  const cutNote = h('p', { class: 'note', hidden: true }, t('cut')); // a long selection, cut to its first paragraph
  const radio = (value) =>
    h('label', null, h('input', { type: 'radio', name: 'tc-mode', value, onchange: () => (mode = value) }), t(value));
  const radios = [radio('exclusive'), radio('combined')];
  const quoteBox = h(
    'div',
    { id: 'tc-quote', class: 'quote', hidden: true },
    h('div', { class: 'quote-head' }, h('span', null, t('asking')), iconButton({ class: 'icon' }, t('remove'), I.CLOSE, () => setQuote(null))),
    quoteText,
    cutNote,
    h('fieldset', null, h('legend', null, t('from')), radios)
  );

  const empty = h('p', { class: 'empty' }, t('empty'));
  const log = h('div', { id: 'tc-log', class: 'log', role: 'log', 'aria-live': 'polite', 'aria-label': t('log'), tabindex: 0 }, empty);
  // Questions about the page the reader is on, from its headings; refreshed on every open.
  const suggest = h('div', { id: 'tc-suggest', class: 'suggest', role: 'group', 'aria-label': t('suggest'), hidden: true });

  const form = h('form', { onsubmit: submit }, quoteBox, h('div', { class: 'row' }, input, micButton(t, input, ctx.lang), send, stop));
  // "Answering…" while an answer runs (polite): the log itself speaks once the answer is complete
  const status = h('p', { class: 'sr', role: 'status' });
  const panel = h(
    'section',
    { id: 'tc-panel', class: 'panel', role: 'dialog', 'aria-labelledby': 'tc-title', hidden: true, onkeydown: onKey },
    h(
      'header',
      null,
      h('h2', { id: 'tc-title' }, ctx.title),
      tutorSwitch(t), // "Hints first", remembered (practice.js)
      iconButton({ id: 'tc-new', class: 'icon' }, t('new'), I.NEW, () => on.reset()),
      iconButton({ id: 'tc-close', class: 'icon' }, t('close'), I.CLOSE, () => close(true))
    ),
    log,
    suggest,
    form,
    status
  );

  input.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) submit(e);
  });
  input.addEventListener('input', autosize);

  function autosize() {
    input.style.height = 'auto';
    input.style.height = Math.min(input.scrollHeight + 2, 140) + 'px';
  }

  // A non-modal dialog: while it is open, Tab and Shift+Tab go round its controls (header,
  // messages, sources, actions, form) instead of leaving into the page; Escape closes it and
  // returns focus to the bubble. The page stays usable with the mouse.
  function onKey(e) {
    if (e.key === 'Escape') {
      e.stopPropagation();
      close(true);
    } else if (e.key === 'Tab') {
      const all = [...panel.querySelectorAll('a[href], button, summary, textarea, input, [tabindex="0"]')].filter(
        (el) => el.getClientRects().length && !el.disabled && (el.type !== 'radio' || el.checked)
      );
      const at = all.indexOf(panel.getRootNode().activeElement);
      const next = e.shiftKey ? (at <= 0 ? all.length - 1 : -1) : at === all.length - 1 ? 0 : -1;
      if (next >= 0) {
        e.preventDefault();
        all[next].focus();
      }
    }
  }

  function submit(e) {
    e && e.preventDefault();
    const q = input.value.trim();
    if (busy || !q) return input.focus();
    ask(q);
    input.value = '';
    autosize();
    input.focus();
  }

  function ask(q) {
    suggest.hidden = true;
    on.submit(q, quote, mode);
    setQuote(null);
  }

  function showSuggestions() {
    const qs = [...courseQuestions(t), ...pageQuestions(document, ctx.host, t).slice(0, 2).map((q) => ({ label: q, ask: q }))];
    suggest.replaceChildren(
      h('span', { class: 'sr' }, t('suggest')),
      ...qs.map((q) => h('button', { type: 'button', class: 'chip', onclick: () => !busy && ask(q.ask) }, q.label))
    );
    suggest.hidden = !qs.length;
  }

  const isOpen = () => !panel.hidden;

  /**
   * Open or close the panel. `focus`: move focus into the input (on open; not when opened on
   * page load) or back to the bubble (on close).
   */
  function show(open, focus) {
    if (isOpen() !== open) {
      panel.hidden = !open;
      bubble.setAttribute('aria-expanded', open);
      bubble.replaceChildren(icon(open ? I.CLOSE : I.CHAT));
      if (open) showSuggestions();
      log.scrollTop = log.scrollHeight;
      on.openChange();
    }
    if (focus) (open ? input : bubble).focus();
  }
  const open = (focus) => show(true, focus);
  const close = (focus) => show(false, focus);

  /** Show (or with null, remove) the passage the next question is about; `cut`: say it was cut. */
  function setQuote(text, preset, cut) {
    quote = text || null;
    if (preset) mode = preset;
    quoteText.textContent = quote || '';
    cutNote.hidden = !cut;
    quoteBox.hidden = !quote;
    for (const r of radios) r.firstChild.checked = r.firstChild.value === mode;
  }

  return {
    panel,
    log,
    input,
    open,
    close,
    isOpen,
    setQuote,
    busy: () => busy,
    setBusy(b) {
      busy = b;
      status.textContent = b ? t('answering') : '';
      const refocus = panel.getRootNode().activeElement === (b ? send : stop);
      send.hidden = b;
      stop.hidden = !b;
      if (refocus) (b ? stop : input).focus();
    },
    /** Append a message element (the first one replaces the welcome text). */
    add(el) {
      empty.remove();
      log.append(el);
      log.scrollTop = log.scrollHeight;
    },
    /** Run a DOM update, keeping the log pinned to the bottom if the reader was there. */
    stick(update) {
      const pinned = log.scrollHeight - log.scrollTop - log.clientHeight < 48;
      update();
      if (pinned) log.scrollTop = log.scrollHeight;
    },
    clear() {
      log.replaceChildren(empty);
      setQuote(null);
      showSuggestions();
    },
  };
}
