'use strict';
// Docusaurus plugin: adds the textbook chat widget's <script> tag to every page.
//
//   // docusaurus.config.js
//   plugins: [['docusaurus-plugin-textbook-chat', { apiUrl: 'https://chat.example.org', bookId: 'my-book' }]],
//
// The tag goes at the end of <body> with `defer`, so it never delays rendering, and the widget
// (which attaches to document.body) survives Docusaurus client-side navigation.

const POSITIONS = ['bottom-right', 'bottom-left'];
const MODES = ['exclusive', 'combined'];

/** Option name → data-* attribute of the script tag. */
const ATTRIBUTES = {
  apiUrl: 'data-api',
  bookId: 'data-book-id',
  title: 'data-title',
  position: 'data-position',
  accent: 'data-accent',
  selectionMode: 'data-selection-mode',
  open: 'data-open',
  shortcut: 'data-shortcut',
  siteUrl: 'data-site-url',
};

function fail(message) {
  throw new Error(`[textbook-chat] invalid plugin options: ${message}`);
}

function httpUrl(value, name) {
  let url;
  try {
    url = new URL(value);
  } catch {
    fail(`${name} must be an absolute URL, got ${JSON.stringify(value)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') fail(`${name} must be an http(s) URL`);
  return String(value).replace(/\/+$/, '');
}

/**
 * Validate and normalise the options. Throws a readable Error on bad input.
 * @returns {{apiUrl, scriptUrl, bookId?, title?, position?, accent?, selectionMode?, open?, shortcut?, siteUrl?}}
 */
function normalizeOptions(options = {}) {
  if (options === null || typeof options !== 'object') fail('expected an object');
  const known = new Set([...Object.keys(ATTRIBUTES), 'scriptUrl', 'id']);
  for (const key of Object.keys(options)) if (!known.has(key)) fail(`unknown option "${key}"`);
  if (!options.apiUrl) fail('apiUrl is required (the chat server, e.g. "http://localhost:8000")');

  const out = { apiUrl: httpUrl(options.apiUrl, 'apiUrl') };
  out.scriptUrl = options.scriptUrl ? httpUrl(options.scriptUrl, 'scriptUrl') : `${out.apiUrl}/widget.js`;
  for (const key of ['bookId', 'title', 'accent', 'shortcut']) {
    if (options[key] == null) continue;
    if (typeof options[key] !== 'string' || !options[key].trim()) fail(`${key} must be a non-empty string`);
    out[key] = options[key].trim();
  }
  if (options.position != null) {
    if (!POSITIONS.includes(options.position)) fail(`position must be one of ${POSITIONS.join(', ')}`);
    out.position = options.position;
  }
  if (options.selectionMode != null) {
    if (!MODES.includes(options.selectionMode)) fail(`selectionMode must be one of ${MODES.join(', ')}`);
    out.selectionMode = options.selectionMode;
  }
  if (options.open != null) {
    if (typeof options.open !== 'boolean') fail('open must be a boolean');
    out.open = options.open;
  }
  if (options.siteUrl != null) out.siteUrl = httpUrl(options.siteUrl, 'siteUrl') + '/';
  if (options.id != null) out.id = options.id; // Docusaurus adds it for multi-instance plugins
  return out;
}

/** The <script> tag description Docusaurus renders (see injectHtmlTags). */
function scriptTag(options) {
  const attributes = { src: options.scriptUrl, defer: true };
  for (const [key, attr] of Object.entries(ATTRIBUTES)) {
    if (options[key] != null) attributes[attr] = String(options[key]);
  }
  return { tagName: 'script', attributes };
}

module.exports = function textbookChatPlugin(context, options) {
  const opts = normalizeOptions(options);
  // Default book id: the site's projectName, so two books on one origin keep separate chats.
  if (!opts.bookId && context && context.siteConfig && context.siteConfig.projectName) {
    opts.bookId = context.siteConfig.projectName;
  }
  // The site's own URL and base path: the widget keeps citations under it on the reader's origin
  // (the same build served locally or on a preview deployment).
  if (!opts.siteUrl && context && context.siteConfig && context.siteConfig.url) {
    // the site's base, not a translation's (a build for locale "ur" has baseUrl "/ur/")
    const i18n = context.i18n || {};
    let base = context.siteConfig.baseUrl || '/';
    if (i18n.currentLocale && i18n.currentLocale !== i18n.defaultLocale && base.endsWith(`/${i18n.currentLocale}/`))
      base = base.slice(0, -(i18n.currentLocale.length + 1));
    opts.siteUrl = context.siteConfig.url.replace(/\/+$/, '') + base;
  }
  return {
    name: 'textbook-chat',
    injectHtmlTags() {
      return { postBodyTags: [scriptTag(opts)] };
    },
  };
};

// Docusaurus calls this before the plugin; errors stop the build with the message above.
module.exports.validateOptions = ({ options }) => normalizeOptions(options);
module.exports.normalizeOptions = normalizeOptions;
module.exports.scriptTag = scriptTag;
