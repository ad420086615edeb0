// Conversation state: asks the server, shows answers at a reading pace, persists the
// conversation, and handles stop / retry / new chat / feedback / "search the whole book".
import { chat, claimSession, feedback, deleteSession } from './api.js';
import { toSources } from './sources.js';
import { pageContext } from './page.js';
import { readersLink } from './site-url.js';
import { userEl, botEl } from './message.js';
import { SHOW_ANSWERS, posedQuiz } from './course.js';
import { progressKey, quizHead, tutorOn } from './practice.js';

const TAG = '[textbook-chat]';

/**
 * How many characters to reveal next. An answer that arrives at once (an extractive answer, a
 * fast model) would otherwise appear in one burst: the backlog drains in about half a second
 * (1/30 of it a frame), never slower than 3 characters a frame, ending on a word boundary.
 */
export function nextShown(text, shown) {
  const backlog = text.length - shown;
  if (backlog <= 0) return text.length;
  let end = shown + Math.max(3, Math.ceil(backlog / 30));
  while (end < text.length && !/\s/.test(text[end])) end++;
  return Math.min(end, text.length);
}

/**
 * @param {object} ctx  from app.js: {cfg, t, store}
 * @param {object} panel  panel.js result
 */
export function createChat(ctx, panel) {
  const { cfg, t, store } = ctx;
  const saved = store.load();
  let sessionId = saved.sessionId || null;
  // what shows the server the conversation is ours; a conversation kept from before secrets
  // existed has none, and claims it before its next question
  let sessionSecret = saved.sessionSecret || null;
  let messages = (Array.isArray(saved.messages) ? saved.messages : []).filter((m) => m && m.role);
  let ctrl = null; // AbortController of the request in flight
  const views = new Map(); // message → its view

  // every link of an answer opens on the site the reader is on (site-url.js)
  const act = { retry, rate, wholeBook, answers, link: (url) => readersLink(cfg.siteUrl)(url) };

  function show(m) {
    const v = m.role === 'user' ? { el: userEl(m, t) } : botEl(m, act, t);
    views.set(m, v);
    panel.add(v.el);
    return v;
  }

  function drop(m) {
    messages = messages.filter((x) => x !== m);
    views.get(m)?.el.remove();
    views.delete(m);
  }

  function save(open = panel.isOpen()) {
    store.save({ sessionId, sessionSecret, open, messages: messages.filter((m) => m.status !== 'streaming') });
  }

  // practice: a quiz item's answer checked in place, a hint's follow-ups, the reader's progress (practice.js)
  Object.assign(act, { ask: (text) => ask(text), check, save: () => save(), progress: { key: progressKey(location.origin, cfg.bookId) } });

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
    const bot = { role: 'assistant', text: '', shown: 0, status: 'streaming', sources: [], page: location.href };
    messages.push(bot);
    const view = show(bot); // the typing indicator shows from here, before any request
    const mine = (ctrl = new AbortController());
    panel.setBusy(true);

    const { locale, docsVersion } = pageContext();
    // (JSON leaves out what is undefined: a page without a locale or docs version sends none)
    const body = {
      question: user.text,
      metadata: {
        page_url: location.href,
        page_title: document.title,
        client_time: new Date().toISOString(),
        locale,
        docs_version: docsVersion,
      },
    };
    // the site's book only (the plugin sets data-book-id from projectName)
    if (cfg.bookId && cfg.bookId !== 'default') body.filters = { book_id: cfg.bookId };
    if (tutorOn()) body.tutor = true; // "Hints first"
    // with the language of the code block it was selected in, if any
    if (user.quote) (body.selected_text = user.quote), (body.selection_mode = user.mode), (body.selected_code_language = ctx.codeLanguages.get(user.quote));

    // Text is revealed a frame at a time at a reading pace (nextShown); `caught` resolves once
    // everything received is on screen (or at once in a background tab, where frames stop).
    let frame = 0;
    let caught = null;
    const tick = () => {
      frame = 0;
      bot.shown = document.hidden ? bot.text.length : nextShown(bot.text, bot.shown);
      panel.stick(view.paintAnswer);
      if (bot.shown < bot.text.length && !mine.signal.aborted) frame = requestAnimationFrame(tick);
      else caught && caught();
    };
    const wake = () => (frame ||= requestAnimationFrame(tick));
    mine.signal.addEventListener('abort', () => caught && caught());
    const sources = (list) => toSources(list, bot.page, locale, t('selected'), act.link);
    try {
      if (sessionId && !sessionSecret) sessionSecret = await claimSession(cfg.api, sessionId);
      if (!sessionSecret) sessionId = null;
      if (sessionId) body.session_id = sessionId;
      const res = await chat(cfg.api, body, {
        signal: mine.signal,
        secret: sessionSecret,
        onMeta(d) {
          if (d.session_id) sessionId = d.session_id;
          if (d.session_secret) sessionSecret = d.session_secret;
          if (d.sources) bot.sources = sources(d.sources);
          panel.stick(view.paint);
        },
        onToken(s) {
          bot.text += s;
          wake();
        },
      });
      sessionId = res.session_id || sessionId;
      sessionSecret = res.session_secret || sessionSecret;
      bot.text = res.answer || bot.text;
      if (res.sources) bot.sources = sources(res.sources);
      if (bot.shown < bot.text.length && !document.hidden) await new Promise((done) => ((caught = done), wake()));
      if (mine.signal.aborted) throw new DOMException('stopped', 'AbortError');
      bot.status = res.status === 'refused' ? 'refused' : 'done';
      bot.generator = res.generator || '';
      bot.id = res.assistant_message_id || null;
      bot.offer = !!res.offer_book_search && !!user.quote;
      bot.quiz = posedQuiz(res);
      bot.quizData = res.quiz || null; // shown as cards, under the quiz's title
      if (bot.quizData) bot.text = quizHead(bot.text);
      bot.hint = res.status === 'hint';
    } catch (e) {
      if (e.name === 'AbortError') (bot.status = 'stopped'), (bot.text = bot.text.slice(0, bot.shown));
      else if ((e.status === 404 || e.status === 401) && e.code !== 'UNKNOWN_BOOK' && body.session_id && !fresh) {
        // The server no longer knows our session (expired, deleted, or not ours): start a new one, once.
        cancelAnimationFrame(frame);
        sessionId = sessionSecret = null;
        drop(bot);
        return run(user, true);
      } else {
        bot.status = 'error';
        bot.error = t(e.code) !== e.code ? t(e.code) : t(e.status) !== String(e.status) ? t(e.status) : e.message;
        bot.retryable = !!e.retryable;
        console.warn(TAG, e.code || e.name, e.message);
      }
    }
    cancelAnimationFrame(frame);
    delete bot.shown;
    if (ctrl === mine) (ctrl = null), panel.setBusy(false); // not when "New chat" already reset
    panel.stick(view.paint);
    save();
  }

  /** Retry: replace the failed answer with a new attempt at the question before it. */
  function retry(bot) {
    if (ctrl) return;
    const user = messages[messages.indexOf(bot) - 1];
    if (!user || user.role !== 'user') return;
    drop(bot);
    run(user);
    panel.input.focus();
  }

  /** The passage did not cover the question: ask the whole book, which answers or refuses on its own. */
  function wholeBook(bot) {
    const user = messages[messages.indexOf(bot) - 1];
    if (user && ask(user.text)) (bot.offer = false), views.get(bot)?.paint();
  }

  /** A quiz item's answer, checked by the server in this conversation (its feedback shows on the card). */
  async function check(quizId, n, text) {
    const body = { question: text, session_id: sessionId, quiz_answer: { quiz_id: quizId, item: n } };
    if (cfg.bookId && cfg.bookId !== 'default') body.filters = { book_id: cfg.bookId };
    return chat(cfg.api, body, { secret: sessionSecret });
  }

  /** A quiz's answers, asked for in the same conversation. */
  function answers(bot) {
    if (ask(SHOW_ANSWERS)) (bot.quiz = false), views.get(bot)?.paint();
  }

  async function rate(m, rating) {
    const ok = await feedback(cfg.api, m.id, rating, sessionSecret);
    if (ok) save();
    return ok;
  }

  return {
    ask,
    save,
    busy: () => !!ctrl,
    stop: () => ctrl?.abort(),
    /** New chat: forget the conversation here and on the server. */
    reset() {
      ctrl?.abort();
      ctrl = null;
      if (sessionId) deleteSession(cfg.api, sessionId, sessionSecret);
      sessionId = sessionSecret = null;
      messages = [];
      views.clear();
      panel.clear();
      panel.setBusy(false);
      save();
      panel.input.focus();
    },
  };
}
