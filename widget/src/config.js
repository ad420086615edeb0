// Configuration from the script tag's data-* attributes, each with an explicit default.

export const DEFAULTS = {
  api: '', // empty: the origin the script was loaded from
  title: '', // empty: "Ask the textbook" in the page's language
  bookId: 'default',
  position: 'bottom-right', // or bottom-left
  accent: '', // any CSS colour; empty: --tc-accent, then Docusaurus's --ifm-color-primary
  selectionMode: 'combined', // preselected answer scope for "Ask about this": exclusive | combined
  open: false, // data-open / data-open="true": open on load
  shortcut: 'mod+/', // mod = Ctrl, or ⌘ on macOS; "none" disables it
  siteUrl: '', // the book's own site URL and base path: links under it open on the reader's origin
  selection: 'on', // "off": no "Ask about this" button (a site's own selection menu can call textbookChat.askAboutSelection())
  contentSelector: '', // the page's main content; empty: Docusaurus's article, else main
};
const CHOICES = { position: ['bottom-right', 'bottom-left'], selectionMode: ['exclusive', 'combined'], selection: ['on', 'off'] };
const ATTR = (k) => 'data-' + k.replace(/[A-Z]/g, (c) => '-' + c.toLowerCase());
const MODS = ['mod', 'ctrl', 'meta', 'alt', 'shift'];

/** Is this a shortcut parseShortcut understands: modifiers then one key, or "none"? */
export const validShortcut = (spec) => {
  const parts = String(spec).toLowerCase().split('+');
  const key = parts.pop();
  return key === 'none' ? !parts.length : /^(.|f\d{1,2})$/u.test(key) && parts.every((m) => MODS.includes(m));
};

/**
 * @param {DOMStringMap|object} ds  the script's dataset
 * @param {string} src  the script's src (the API defaults to its origin)
 * @param {string} page  the page URL
 * @param {(message: string) => void} warn  told once about each attribute that was ignored
 */
export function readConfig(ds = {}, src = '', page = 'http://localhost/', warn = () => {}) {
  const cfg = {};
  for (const k in DEFAULTS) {
    const v = String(ds[k] ?? '').trim();
    const ok = v && (!CHOICES[k] || CHOICES[k].includes(v)) && (k !== 'shortcut' || validShortcut(v));
    if (v && !ok) warn(`${ATTR(k)}="${v}" is not valid; using ${JSON.stringify(DEFAULTS[k])}`);
    cfg[k] = ok ? v : DEFAULTS[k];
  }
  try {
    cfg.api = cfg.api ? new URL(cfg.api, page).href : new URL(src || page, page).origin;
  } catch {
    warn(`data-api="${cfg.api}" is not a URL; using this page's origin`);
    cfg.api = new URL(page).origin;
  }
  cfg.api = cfg.api.replace(/\/+$/, '');
  // Present without a value means true; "false", "0", "no", "off" mean false.
  cfg.open = ds.open != null && !/^(false|0|no|off)$/i.test(ds.open);
  return cfg;
}

/**
 * "mod+/", "ctrl+shift+k", "alt+c", "/" → a predicate on KeyboardEvent, or null for "none".
 * `mod` is Ctrl or ⌘. Shift is only checked when named, so "ctrl+/" also works on layouts
 * where "/" needs Shift.
 */
export function parseShortcut(spec) {
  const mods = String(spec).toLowerCase().split('+');
  const key = mods.pop() || '+';
  if (key === 'none') return null;
  const has = (m) => mods.includes(m);
  return (e) =>
    (e.key || '').toLowerCase() === key &&
    (has('mod') ? e.ctrlKey || e.metaKey : !!e.ctrlKey === has('ctrl') && !!e.metaKey === has('meta')) &&
    !!e.altKey === has('alt') &&
    (!has('shift') || e.shiftKey);
}

/**
 * The shortcut as people read it and as `aria-keyshortcuts` wants it:
 * "mod+/" → {label: "Ctrl+/", aria: "Control+/"} (on macOS: "⌘/", "Meta+/"). Null for "none".
 */
export function describeShortcut(spec, mac = false) {
  const parts = String(spec).toLowerCase().split('+');
  const key = parts.pop();
  if (key === 'none') return null;
  const aria = { mod: mac ? 'Meta' : 'Control', ctrl: 'Control', meta: 'Meta', alt: 'Alt', shift: 'Shift' };
  const label = { mod: mac ? '⌘' : 'Ctrl+', ctrl: 'Ctrl+', meta: '⌘', alt: mac ? '⌥' : 'Alt+', shift: mac ? '⇧' : 'Shift+' };
  const k = key.length === 1 ? key.toUpperCase() : key[0].toUpperCase() + key.slice(1);
  return { label: parts.map((m) => label[m]).join('') + k, aria: [...parts.map((m) => aria[m]), k].join('+') };
}
