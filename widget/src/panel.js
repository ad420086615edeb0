// The static UI: floating bubble, chat dialog (header, message log, question form with the
// optional quoted passage). Messages are rendered by message.js and added through `add`.
import { h, icon, iconButton } from './dom.js';
import * as I from './icons.js';

/**
 * @param {object} cfg  config.js result
 * @param {{submit(question, quote, mode), stop(), reset(), openChange()}} on
 */
export function createPanel(cfg, on) {
  let busy = false;
  let quote = null;
  let mode = cfg.selectionMode;

  const input = h('textarea', {
    id: 'tc-input',
    rows: 1,
    maxlength: 1000, // the server's limit for a question
    placeholder: 'Ask a question…',
    'aria-label': 'Your question',
    enterkeyhint: 'send',
  });
  const send = iconButton({ id: 'tc-send', class: 'send', type: 'submit' }, 'Send', I.SEND);
  const stop = iconButton({ id: 'tc-stop', class: 'send stop', hidden: true }, 'Stop generating', I.STOP, () => on.stop());

  const quoteText = h('blockquote');
  const radio = (value, label) =>
    h('label', null, h('input', { type: 'radio', name: 'tc-mode', value, onchange: () => (mode = value) }), label);
  const radios = [radio('exclusive', 'Only this passage'), radio('combined', 'This passage and the book')];
  const quoteBox = h(
    'div',
    { id: 'tc-quote', class: 'quote', hidden: true },
    h(
      'div',
      { class: 'quote-head' },
      h('span', null, 'Asking about this passage'),
      iconButton({ class: 'icon' }, 'Remove passage', I.CLOSE, () => setQuote(null))
    ),
    quoteText,
    h('fieldset', null, h('legend', null, 'Answer from'), radios)
  );

  const empty = h('p', { class: 'empty' }, 'Ask anything about this book. Tip: select text on a page to ask about it.');
  const log = h('div', { id: 'tc-log', class: 'log', role: 'log', 'aria-live': 'polite', 'aria-label': 'Conversation', tabindex: 0 }, empty);

  const form = h('form', { onsubmit: submit }, quoteBox, h('div', { class: 'row' }, input, send, stop));
  const panel = h(
    'section',
    { id: 'tc-panel', class: 'panel', role: 'dialog', 'aria-labelledby': 'tc-title', hidden: true, onkeydown: onKey },
    h(
      'header',
      null,
      h('h2', { id: 'tc-title' }, cfg.title),
      iconButton({ id: 'tc-new', class: 'icon' }, 'New chat', I.NEW, () => on.reset()),
      iconButton({ id: 'tc-close', class: 'icon' }, 'Close chat', I.CLOSE, () => close(true))
    ),
    log,
    form
  );
  const bubble = iconButton({ id: 'tc-bubble', class: 'bubble', 'aria-expanded': 'false', 'aria-controls': 'tc-panel' }, cfg.title, I.CHAT, () =>
    isOpen() ? close(true) : open(true)
  );

  input.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) submit(e);
  });
  input.addEventListener('input', autosize);

  function autosize() {
    input.style.height = 'auto';
    input.style.height = Math.min(input.scrollHeight + 2, 140) + 'px';
  }

  function onKey(e) {
    if (e.key === 'Escape') {
      e.stopPropagation();
      close(true);
    }
  }

  function submit(e) {
    e && e.preventDefault();
    const q = input.value.trim();
    if (busy || !q) return input.focus();
    on.submit(q, quote, mode);
    input.value = '';
    autosize();
    setQuote(null);
    input.focus();
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
      log.scrollTop = log.scrollHeight;
      on.openChange();
    }
    if (focus) (open ? input : bubble).focus();
  }
  const open = (focus) => show(true, focus);
  const close = (focus) => show(false, focus);

  /** Show (or with null, remove) the passage the next question is about. */
  function setQuote(text, preset) {
    quote = text || null;
    if (preset) mode = preset;
    quoteText.textContent = quote || '';
    quoteBox.hidden = !quote;
    for (const r of radios) r.firstChild.checked = r.firstChild.value === mode;
  }

  return {
    bubble,
    panel,
    input,
    open,
    close,
    isOpen,
    setQuote,
    setBusy(b) {
      busy = b;
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
    },
  };
}
