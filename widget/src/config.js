// Configuration from the script tag's data-* attributes, each with an explicit default.

export const DEFAULTS = {
  api: '', // the script's own origin
  title: 'Ask the textbook',
  bookId: 'default',
  position: 'bottom-right', // or bottom-left
  accent: '', // any CSS colour; empty: --tc-accent, then Docusaurus's --ifm-color-primary
  selectionMode: 'combined', // preselected choice for "Ask about this": exclusive | combined
  open: false,
  shortcut: 'mod+/', // mod = Ctrl, or ⌘ on macOS; "none" disables it
};

const oneOf = (v, allowed, d) => (allowed.includes(v) ? v : d);

/**
 * @param {DOMStringMap|object} ds  the script's dataset
 * @param {string} src  the script's src (the API defaults to its origin)
 * @param {string} page  the page URL (fallback base)
 */
export function readConfig(ds = {}, src = '', page = 'http://localhost/') {
  let api;
  try {
    api = ds.api ? new URL(ds.api, page).href : new URL(src || page, page).origin;
  } catch {
    api = new URL(page).origin;
  }
  return {
    api: api.replace(/\/+$/, ''),
    title: (ds.title || '').trim() || DEFAULTS.title,
    bookId: (ds.bookId || '').trim() || DEFAULTS.bookId,
    position: oneOf(ds.position, ['bottom-right', 'bottom-left'], DEFAULTS.position),
    accent: (ds.accent || '').trim(),
    selectionMode: oneOf(ds.selectionMode, ['exclusive', 'combined'], DEFAULTS.selectionMode),
    // data-open (no value), data-open="true" → true; data-open="false" / "0" / "no" → false
    open: ds.open != null ? !/^(false|0|no|off)$/i.test(ds.open) : DEFAULTS.open,
    shortcut: ds.shortcut != null ? ds.shortcut.trim() : DEFAULTS.shortcut,
  };
}

/**
 * "mod+/", "ctrl+shift+k", "alt+c", "/" → a predicate on KeyboardEvent, or null for "none"/"".
 * `mod` is Ctrl or ⌘. Shift is only checked when named, so "ctrl+/" also works on layouts
 * where "/" needs Shift.
 */
export function parseShortcut(spec) {
  const parts = String(spec || '').toLowerCase().split('+');
  const key = parts.pop() || (parts.length ? '+' : '');
  if (!key || key === 'none') return null;
  const mods = new Set(parts);
  const has = (m) => mods.has(m);
  return (e) =>
    (e.key || '').toLowerCase() === key &&
    (has('mod') ? e.ctrlKey || e.metaKey : !!e.ctrlKey === has('ctrl') && !!e.metaKey === has('meta')) &&
    !!e.altKey === has('alt') &&
    (!has('shift') || e.shiftKey);
}
