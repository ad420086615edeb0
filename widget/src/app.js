// Assembles the widget: host element + open shadow root, styles, theme, panel, conversation,
// "Ask about this" button and keyboard shortcut.
import css from './styles.js';
import { h, editable } from './dom.js';
import { parseShortcut } from './config.js';
import { createStore, storageKey } from './store.js';
import { watchTheme, contrastText } from './theme.js';
import { createPanel } from './panel.js';
import { createChat } from './chat.js';
import { watchSelection } from './selection.js';

export const HOST_ID = 'textbook-chat';

export function mount(cfg) {
  const host = document.createElement('div');
  host.id = HOST_ID;
  const shadow = host.attachShadow({ mode: 'open' });
  // A constructed stylesheet (not blocked by a strict style-src CSP, unlike <style>). Every
  // browser with color-mix(), which the styles use, supports it.
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(css);
  shadow.adoptedStyleSheets = [sheet];
  const root = h('div', { class: 'tc', 'data-pos': cfg.position === 'bottom-left' ? 'left' : 'right' });
  if (cfg.accent && CSS.supports('color', cfg.accent)) root.style.setProperty('--accent', cfg.accent);
  shadow.append(root);

  const store = createStore(storageKey(location.origin, cfg.bookId));
  let chat;
  const panel = createPanel(cfg, {
    submit: (q, quote, mode) => chat.ask(q, quote, mode),
    stop: () => chat.stop(),
    reset: () => chat.reset(),
    openChange: () => chat && chat.save(),
  });
  root.append(panel.bubble, panel.panel);
  chat = createChat(cfg, panel, store);
  document.body.append(host);

  watchTheme((dark) => {
    root.setAttribute('data-theme', dark ? 'dark' : 'light');
    // Icon colour on the accent: white or dark, whichever reads better on the actual colour.
    root.style.setProperty('--on-accent', contrastText(getComputedStyle(panel.bubble).backgroundColor));
  });

  const askAbout = (text) => {
    panel.setQuote(text, cfg.selectionMode);
    panel.open(true);
  };
  const selection = watchSelection(host, root, askAbout);

  // Shortcut: toggles the panel; with text selected on the page it asks about the selection.
  const matches = parseShortcut(cfg.shortcut);
  if (matches) {
    document.addEventListener('keydown', (e) => {
      if (!matches(e)) return;
      // A shortcut without modifiers (e.g. "/") must not fire while the reader types.
      if (!(e.ctrlKey || e.metaKey || e.altKey) && editable(e.composedPath()[0])) return;
      e.preventDefault();
      const text = selection.current();
      if (text) askAbout(text);
      else if (panel.isOpen() && document.activeElement === host) panel.close(true);
      else panel.open(true);
    });
  }

  // Reopen after a full page load (e.g. following a source link), but not on phones, where
  // the full-screen panel would hide the passage the reader just navigated to.
  if (cfg.open || (chat.wasOpen && matchMedia('(min-width: 481px)').matches)) panel.open(false);

  return {
    open: () => panel.open(true),
    close: () => panel.close(false),
    /** Ask programmatically: textbookChat.ask('What is aliasing?', {selectedText, mode}) */
    ask(question, opts = {}) {
      panel.open(false);
      return chat.ask(String(question), opts.selectedText, opts.mode === 'exclusive' ? 'exclusive' : opts.mode ? 'combined' : cfg.selectionMode);
    },
    reset: () => chat.reset(),
  };
}
