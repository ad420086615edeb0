// Configuration from the script tag's data-* attributes, each with an explicit default.

export const DEFAULTS = {
  api: '', // empty: the origin the script was loaded from
  title: 'Ask the textbook',
  bookId: 'default',
  position: 'bottom-right', // or bottom-left
  accent: '', // any CSS colour; empty: --tc-accent, then Docusaurus's --ifm-color-primary
  selectionMode: 'combined', // preselected answer scope for "Ask about this": exclusive | combined
  open: false, // data-open / data-open="true": open on load
  shortcut: 'mod+/', // mod = Ctrl, or ⌘ on macOS; "none" disables it
};
const CHOICES = { position: ['bottom-right', 'bottom-left'], selectionMode: ['exclusive', 'combined'] };

/**
 * @param {DOMStringMap|object} ds  the script's dataset
 * @param {string} src  the script's src (the API defaults to its origin)
 * @param {string} page  the page URL
 */
export function readConfig(ds = {}, src = '', page = 'http://localhost/') {
  const cfg = {};
  for (const k in DEFAULTS) {
    const v = String(ds[k] ?? '').trim();
    cfg[k] = v && (!CHOICES[k] || CHOICES[k].includes(v)) ? v : DEFAULTS[k];
  }
  try {
    cfg.api = cfg.api ? new URL(cfg.api, page).href : new URL(src || page, page).origin;
  } catch {
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
