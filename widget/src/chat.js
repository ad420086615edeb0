// Conversation state: asks the server, streams answers into message views, persists the
// conversation, and handles stop / retry / new chat / feedback.
import { chat, feedback, deleteSession } from './api.js';
import { toSources } from './sources.js';
import { pageContext } from './page.js';
import { DEFAULTS } from './config.js';
import { userEl, botEl } from './message.js';

const TAG = '[textbook-chat]';

/**
 * @param {object} cfg  config.js result
 * @param {object} panel  panel.js result
 * @param {object} store  store.js result
 */
export function createChat(cfg, panel, store) {
  const saved = store.load();
  let sessionId = saved.sessionId || null;
  let messages = (Array.isArray(saved.messages) ? saved.messages : []).filter((m) => m && m.role);
  let ctrl = null; // AbortController of the request in flight
  const views = new Map(); // message → its view

  const act = { retry, rate };

  function show(m) {
    const v = m.role === 'user' ? { el: userEl(m) } : botEl(m, act);
    views.set(m, v);
    panel.add(v.el);
    return v;
  }

  function drop(m) {
    messages = messages.filter((x) => x !== m);
    views.get(m)?.el.remove();
    views.delete(m);
  }

  function save() {
    store.save({ sessionId, open: panel.isOpen(), messages: messages.filter((m) => m.status !== 'streaming') });
  }

  messages.forEach(show); // saved conversations never hold a half-streamed answer (see save)

  /** Ask a question; `quote` is an optional selected passage. False if an answer is running. */
  function ask(text, quote, mode) {
    if (ctrl) return false;
    const user = { role: 'user', text };
    if (quote) (user.quote = quote), (user.mode = mode);
    messages.push(user);
    show(user);
    run(user);
    return true;
  }

  async function run(user, fresh = false) {
    const bot = { role: 'assistant', text: '', status: 'streaming', sources: [], page: location.href };
    messages.push(bot);
    const view = show(bot);
    const mine = (ctrl = new AbortController());
    panel.setBusy(true);

    const { locale, docsVersion } = pageContext();
    const body = {
      question: user.text,
      metadata: { page_url: location.href, page_title: document.title, client_time: new Date().toISOString() },
    };
    if (locale) body.metadata.locale = locale;
    if (docsVersion) body.metadata.docs_version = docsVersion;
    // the site's book only (the plugin sets data-book-id from projectName)
    if (cfg.bookId && cfg.bookId !== DEFAULTS.bookId) body.filters = { book_id: cfg.bookId };
    if (sessionId) body.session_id = sessionId;
    if (user.quote) (body.selected_text = user.quote), (body.selection_mode = user.mode);

    // Tokens can arrive faster than the screen refreshes: render at most once per frame.
    let frame = 0;
    const flush = () => ((frame = 0), panel.stick(view.paintAnswer));
    try {
      const res = await chat(cfg.api, body, {
        signal: mine.signal,
        onMeta(d) {
          if (d.session_id) sessionId = d.session_id;
          if (d.sources) bot.sources = toSources(d.sources, bot.page, locale);
          panel.stick(view.paint);
        },
        onToken(t) {
          bot.text += t;
          frame ||= requestAnimationFrame(flush);
        },
      });
      sessionId = res.session_id || sessionId;
      bot.status = res.status === 'refused' ? 'refused' : 'done';
      bot.text = res.answer || bot.text;
      if (res.sources) bot.sources = toSources(res.sources, bot.page, locale);
      bot.generator = res.generator || '';
      bot.id = res.assistant_message_id || null;
    } catch (e) {
      if (e.name === 'AbortError') bot.status = 'stopped';
      else if (e.status === 404 && body.session_id && !fresh) {
        // The server no longer knows our session (expired or deleted): start a new one, once.
        cancelAnimationFrame(frame);
        sessionId = null;
        drop(bot);
        return run(user, true);
      } else {
        bot.status = 'error';
        bot.error = e.message || 'Something went wrong.';
        bot.retryable = !!e.retryable;
        console.warn(TAG, e.code || e.name, e.message);
      }
    }
    cancelAnimationFrame(frame);
    if (ctrl === mine) (ctrl = null), panel.setBusy(false); // not when "New chat" already reset
    panel.stick(view.paint);
    save();
  }

  /** Retry: replace the failed answer with a new attempt at the question before it. */
  function retry(bot) {
    if (ctrl) return;
    const i = messages.indexOf(bot);
    const user = messages[i - 1];
    if (!user || user.role !== 'user') return;
    drop(bot);
    run(user);
    panel.input.focus();
  }

  async function rate(m, rating) {
    const ok = await feedback(cfg.api, m.id, rating);
    if (ok) save();
    return ok;
  }

  return {
    ask,
    save,
    wasOpen: !!saved.open,
    stop: () => ctrl?.abort(),
    /** New chat: forget the conversation here and on the server. */
    reset() {
      ctrl?.abort();
      ctrl = null;
      if (sessionId) deleteSession(cfg.api, sessionId);
      sessionId = null;
      messages = [];
      views.clear();
      panel.clear();
      panel.setBusy(false);
      save();
      panel.input.focus();
    },
  };
}
