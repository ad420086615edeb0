// What widget.js mounts on every page: host element + open shadow root, base styles, theme,
// the bubble, the "Ask about this" button and the keyboard shortcut. The chat panel itself
// (widget-panel.js) is loaded the first time the reader needs it.
import css from './styles.js';
import { h, iconButton, editable } from './dom.js';
import { parseShortcut, describeShortcut } from './config.js';
import { strings, isRtl, baseLang, LANGUAGE_PARTS } from './i18n.js';
import { createStore, storageKey } from './store.js';
import { watchTheme, contrastText, readable } from './theme.js';
import { watchSelection, pageSelection } from './selection.js';
import { CHAT } from './icons.js';
import { watchCitations } from './cite.js';
import { lift } from './corner.js';
import { unavailable, answers } from './down.js';

export const HOST_ID = 'textbook-chat';

/**
 * @param {object} cfg  config.js result
 * @param {string} partUrl  where widget-panel.js is
 * @param {object} api  window.textbookChat, which the panel script reports to
 */
export function mount(cfg, partUrl, api) {
  const html = document.documentElement;
  const lang = html.lang || 'en';
  const langs = {}; // a language part's panel words (widget-ur.js), by language
  const words = (more) => strings(lang, window.TextbookChatStrings, { ...more, ...langs });
  const t = words();
  const rtl = html.dir ? html.dir === 'rtl' : isRtl(lang);
  const title = cfg.title || t('title');

  const host = document.createElement('div');
  host.id = HOST_ID;
  const shadow = host.attachShadow({ mode: 'open' });
  // A constructed stylesheet (not blocked by a strict style-src CSP, unlike <style>). Every
  // browser with color-mix(), which the styles use, supports it.
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(css);
  shadow.adoptedStyleSheets = [sheet];
  const root = h('div', { class: 'tc', lang, dir: rtl ? 'rtl' : 'ltr', 'data-pos': cfg.position === 'bottom-left' ? 'left' : 'right' });
  if (cfg.accent && CSS.supports('color', cfg.accent)) root.style.setProperty('--accent', cfg.accent);
  shadow.append(root);

  // The shortcut is shown in the bubble's tooltip and announced through aria-keyshortcuts.
  const keys = describeShortcut(cfg.shortcut, /Mac|iP(hone|ad)/.test(navigator.platform));
  const bubble = iconButton(
    { id: 'tc-bubble', class: 'bubble', 'aria-expanded': 'false', 'aria-controls': 'tc-panel', 'aria-keyshortcuts': keys && keys.aria },
    title,
    CHAT,
    () => withPanel((p) => (p.isOpen() ? p.close(true) : p.open(true)), true)
  );
  if (keys) bubble.title = `${title} (${keys.label})`;
  root.append(bubble);

  const store = createStore(storageKey(location.origin, cfg.bookId));
  // codeLanguages: passage → the language of the code block it was selected in (chat.js sends it)
  const ctx = { cfg, t, words, title, lang, root, shadow, host, bubble, store, codeLanguages: new Map() };

  // The panel script reports back through api._define, a language part through api._lang
  // (classic scripts as well); on a page in a language with a part, the two load together.
  let part = null;
  let panel = null;
  let mountPanel = null;
  api._define = (m) => (mountPanel = m);
  api._lang = (code, table) => (langs[code] = table);
  const add = (src) =>
    new Promise((onload, fail) => document.head.append(h('script', { src, async: true, onload, onerror: () => fail(new Error('could not load ' + src)) })));
  const base = baseLang(lang);
  const load = () =>
    (part ||= Promise.all([add(partUrl), LANGUAGE_PARTS.includes(base) && add(api._partUrl(base))]).then(() => {
      panel = mountPanel(ctx);
      // a panel from the site's own build says it when the chat server does not answer
      if (new URL(partUrl).origin !== new URL(cfg.api).origin)
        answers(cfg.api).then((ok) => ok || root.querySelector('#tc-log').before(unavailable(t, () => answers(cfg.api), () => {})));
      return panel;
    }));
  // While widget-panel.js cannot be had (its server is down), a stand-in panel says so and tries
  // again; `toggle`: the bubble was clicked (a second click closes the stand-in).
  let standIn = null;
  const showStandIn = (open) => {
    standIn.hidden = !open;
    bubble.setAttribute('aria-expanded', open);
    (open ? standIn.querySelector('button') : bubble).focus();
  };
  const withPanel = (fn, toggle) =>
    load().then(fn, (e) => {
      part = null; // try again next time
      console.error('[textbook-chat]', e.message);
      if (standIn) return showStandIn(!toggle || standIn.hidden);
      const gone = () => {
        const was = !standIn.hidden;
        standIn.remove();
        standIn = null;
        if (was) withPanel((p) => p.open(true));
      };
      standIn = h('section', { id: 'tc-panel', class: 'panel short', role: 'dialog', 'aria-label': title, onkeydown: (k) => k.key === 'Escape' && showStandIn(false) },
        unavailable(t, () => load().then(() => true, () => !(part = null)), gone));
      root.append(standIn);
      showStandIn(true);
    });
  // Fetch the panel as soon as the reader shows interest, so it is there by the click.
  bubble.addEventListener('pointerenter', load, { once: true });
  bubble.addEventListener('focus', load, { once: true });

  // Docusaurus renders into #__docusaurus; the host goes first in <body>, so the bubble comes
  // early in the tab order (it is position: fixed, so where it sits in the DOM changes nothing).
  document.body.prepend(host);
  watchCitations(host, cfg.contentSelector);

  // Another fixed thing in the bubble's corner (a site's own chat bubble, Docusaurus's "back to
  // top" once the reader scrolls): the bubble and the panel move up above it. Checked again as
  // the page loads, grows, scrolls and resizes.
  const left = (cfg.position === 'bottom-left') !== rtl;
  let placing = 0;
  const avoid = () => (clearTimeout(placing), (placing = setTimeout(() => root.style.setProperty('--lift', lift(host, left) + 'px'), 300)));
  for (const ms of [1500, 4000]) setTimeout(avoid, ms);
  for (const e of ['load', 'resize', 'scroll']) addEventListener(e, avoid, { passive: true });
  new MutationObserver(avoid).observe(document.body, { childList: true });

  watchTheme((dark) => {
    root.setAttribute('data-theme', dark ? 'dark' : 'light');
    // Icon colour on the accent: white or dark, whichever reads better on the actual colour.
    const accent = getComputedStyle(bubble).backgroundColor;
    root.style.setProperty('--on-accent', contrastText(accent));
    // links in the accent colour, where it reads as text on the panel's background (WCAG AA)
    root.style.setProperty('--link', readable(accent, getComputedStyle(root).backgroundColor, getComputedStyle(root).color));
  });

  // sel: selection.js's {text, language, cut}
  const askAbout = (sel) => (sel.language && ctx.codeLanguages.set(sel.text, sel.language), withPanel((p) => p.askAbout(sel.text, sel.cut)));
  const selection = watchSelection(host, root, t('ask'), askAbout, cfg);

  // Shortcut: toggles the panel; with text selected on the page it asks about the selection.
  const matches = parseShortcut(cfg.shortcut);
  if (matches) {
    document.addEventListener('keydown', (e) => {
      if (!matches(e)) return;
      // A shortcut without modifiers (e.g. "/") must not fire while the reader types.
      if (!(e.ctrlKey || e.metaKey || e.altKey) && editable(e.composedPath()[0])) return;
      e.preventDefault();
      const sel = selection.current();
      if (sel) askAbout(sel);
      else withPanel((p) => (p.isOpen() && document.activeElement === host ? p.close(true) : p.open(true)), true);
    });
  }

  // Reopen after a full page load, but not on phones, where the full-screen panel would hide
  // the page, nor after a citation link, whose passage the panel would cover (chat.js).
  // The author's view (insights.js) is fetched only when asked for in the page's address.
  if (new URLSearchParams(location.search).get('textbook-chat') === 'insights') {
    api._author = (mountInsights) => mountInsights(ctx);
    const s = document.createElement('script');
    s.src = api._partUrl('insights'); // main.js: beside widget-panel.js, with its own content hash
    s.async = true;
    document.head.append(s);
  }

  const saved = store.load();
  if (cfg.open || (saved.open && matchMedia('(min-width: 481px)').matches)) withPanel((p) => p.open(false));

  return {
    open: () => withPanel((p) => p.open(true)),
    close: () => panel && panel.close(false),
    /**
     * Ask programmatically: textbookChat.ask('What is aliasing?', {selectedText, mode, codeLanguage}).
     * False if an answer is running.
     */
    ask(question, opts = {}) {
      if (panel && panel.busy()) return false;
      withPanel((p) => p.ask(String(question), opts));
      return true;
    },
    reset: () => withPanel((p) => p.reset()),
    /** For a site's own selection menu: ask about the page's selection (clipped as ours is). False if none. */
    askAboutSelection() {
      const sel = pageSelection(host, cfg.contentSelector, null);
      return !!sel && (askAbout(sel), true);
    },
  };
}
