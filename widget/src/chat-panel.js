// The panel and the conversation, mounted into the shadow root widget.js made (app.js).
import css from './panel-styles.js';
import { createPanel } from './panel.js';
import { createChat } from './chat.js';
import { PANEL_STRINGS } from './panel-strings.js';

/**
 * @param {object} ctx  from app.js: {cfg, t, title, lang, root, shadow, host, bubble, store}
 * @returns the controller app.js drives: open, close, isOpen, busy, askAbout, ask, reset
 */
export function mountPanel(ctx) {
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(css);
  ctx.shadow.adoptedStyleSheets = [...ctx.shadow.adoptedStyleSheets, sheet];
  ctx.t = ctx.words(PANEL_STRINGS); // the loader's words and the panel's (i18n.js)

  let chat;
  const panel = createPanel(ctx, {
    submit: (q, quote, mode) => chat.ask(q, quote, mode),
    stop: () => chat.stop(),
    reset: () => chat.reset(),
    openChange: () => chat && chat.save(),
  });
  ctx.root.append(panel.panel);
  chat = createChat(ctx, panel);

  // Following a citation: the panel closes and stays closed on the cited page, so it covers
  // neither the highlighted passage nor competes with it (a hidden panel's text never matches
  // the page's text fragment). The conversation is one click on the bubble away.
  panel.log.addEventListener('click', (e) => {
    const a = e.target.closest && e.target.closest('a.cite, a.source');
    if (!a || e.ctrlKey || e.metaKey || e.shiftKey || e.button) return; // a new tab keeps this page as it is
    panel.close(false);
    chat.save(false);
  });

  return {
    open: panel.open,
    close: panel.close,
    isOpen: panel.isOpen,
    busy: chat.busy,
    askAbout(text, cut) {
      panel.setQuote(text, ctx.cfg.selectionMode, cut);
      panel.open(true);
    },
    ask(question, opts) {
      panel.open(false);
      const mode = opts.mode === 'exclusive' ? 'exclusive' : opts.mode ? 'combined' : ctx.cfg.selectionMode;
      return chat.ask(question, opts.selectedText, mode);
    },
    reset: chat.reset,
  };
}
