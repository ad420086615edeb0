'use strict';
// Docusaurus plugin: adds the textbook chat widget's <script> tag to every page.
//
//   // docusaurus.config.js
//   plugins: [['docusaurus-plugin-textbook-chat', { apiUrl: 'https://chat.example.org', bookId: 'my-book' }]],
//
// The tag goes at the end of <body> with `defer`, so it never delays rendering, and the widget
// (which attaches to document.body) survives Docusaurus client-side navigation.
//
// `docusaurus build` also copies the widget's scripts (widget.js, the small loader every page runs,
// and widget-panel.js / widget-insights.js, which it loads from beside itself) into the build, under
// `textbook-chat/`, and the tag loads them from the site: the bubble shows even while the chat
// server is down, and the widget still talks to `apiUrl` (data-api). `docusaurus start` loads them
// from `apiUrl` (the chat server serves them too), as does `copyScripts: false`.

const crypto = require('crypto');
const fs = require('fs');
const path = require('path');

const POSITIONS = ['bottom-right', 'bottom-left'];
const MODES = ['exclusive', 'combined'];
/** The folder of the build the scripts are copied to (under the site's baseUrl). */
const FOLDER = 'textbook-chat';
/** The widget's built scripts: widget.js (the loader), widget-panel.js, widget-insights.js and
 * any precompressed .gz / .br beside them. */
const SCRIPT = /^widget(?:-[\w.-]+)?\.js(?:\.gz|\.br)?$/;
/** Where they are: used by path from a checkout of textbook chat, the chat server's static folder
 * (what the server serves); installed, dist/ in the npm package (`npm pack` fills it, see
 * scripts/copy-widget.cjs). */
const REPO = path.join(__dirname, '..', '..');
const SOURCES = [
  ...(fs.existsSync(path.join(REPO, 'pyproject.toml')) ? [path.join(REPO, 'server', 'static')] : []),
  path.join(__dirname, 'dist'),
];

/** Option name → data-* attribute of the script tag. */
const ATTRIBUTES = {
  apiUrl: 'data-api',
  bookId: 'data-book-id',
  title: 'data-title',
  position: 'data-position',
  accent: 'data-accent',
  selectionMode: 'data-selection-mode',
  selection: 'data-selection',
  contentSelector: 'data-content-selector',
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
 * @returns {{apiUrl, scriptUrl?, copyScripts, bookId?, title?, position?, accent?, selectionMode?,
 *            selection?, contentSelector?, open?, shortcut?, siteUrl?}}
 */
function normalizeOptions(options = {}) {
  if (options === null || typeof options !== 'object') fail('expected an object');
  const known = new Set([...Object.keys(ATTRIBUTES), 'scriptUrl', 'copyScripts', 'id']);
  for (const key of Object.keys(options)) if (!known.has(key)) fail(`unknown option "${key}"`);
  if (!options.apiUrl) fail('apiUrl is required (the chat server, e.g. "http://localhost:8000")');

  const out = { apiUrl: httpUrl(options.apiUrl, 'apiUrl') };
  if (options.scriptUrl != null && options.copyScripts === true) {
    fail('scriptUrl and copyScripts: true both say where widget.js comes from; give one');
  }
  if (options.copyScripts != null && typeof options.copyScripts !== 'boolean') fail('copyScripts must be a boolean');
  if (options.scriptUrl) out.scriptUrl = httpUrl(options.scriptUrl, 'scriptUrl');
  out.copyScripts = !out.scriptUrl && options.copyScripts !== false;
  for (const key of ['bookId', 'title', 'accent', 'shortcut', 'contentSelector']) {
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
  for (const key of ['open', 'selection']) {
    if (options[key] == null) continue;
    if (typeof options[key] !== 'boolean') fail(`${key} must be a boolean`);
    out[key] = options[key];
  }
  if (options.siteUrl != null) out.siteUrl = httpUrl(options.siteUrl, 'siteUrl') + '/';
  if (options.id != null) out.id = options.id; // Docusaurus adds it for multi-instance plugins
  return out;
}

/** The value of each data-* attribute (undefined: not written). */
function attributeValue(key, value) {
  if (value == null) return undefined;
  if (key === 'selection') return value ? undefined : 'off'; // "Ask about this" is on unless turned off
  return String(value);
}

/** The <script> tag description Docusaurus renders (see injectHtmlTags). `src` defaults to the
 * chat server's copy (`apiUrl + '/widget.js'`). */
function scriptTag(options, src = options.scriptUrl || `${options.apiUrl}/widget.js`) {
  const attributes = { src, defer: true };
  for (const [key, attr] of Object.entries(ATTRIBUTES)) {
    const value = attributeValue(key, options[key]);
    if (value !== undefined) attributes[attr] = value;
  }
  return { tagName: 'script', attributes };
}

/** The folder holding the built widget.js, and the script files in it. */
function findScripts(sources = SOURCES) {
  for (const dir of sources) {
    if (!fs.existsSync(path.join(dir, 'widget.js'))) continue;
    return { dir, files: fs.readdirSync(dir).filter((name) => SCRIPT.test(name)).sort() };
  }
  return null;
}

/** A short hash of the scripts, in the loader's URL: a new widget is a new URL (no stale cache). */
function scriptsHash({ dir, files }) {
  const digest = crypto.createHash('sha256');
  for (const name of files) digest.update(name).update('\0').update(fs.readFileSync(path.join(dir, name)));
  return digest.digest('hex').slice(0, 10);
}

/** The site's URL and base path (the default locale's), for data-site-url. */
function siteUrlOf(context) {
  const siteConfig = (context && context.siteConfig) || {};
  if (!siteConfig.url) return undefined;
  // the site's base, not a translation's (a build for locale "ur" has baseUrl "/ur/")
  const i18n = context.i18n || {};
  let base = siteConfig.baseUrl || '/';
  if (i18n.currentLocale && i18n.currentLocale !== i18n.defaultLocale && base.endsWith(`/${i18n.currentLocale}/`))
    base = base.slice(0, -(i18n.currentLocale.length + 1));
  return siteConfig.url.replace(/\/+$/, '') + base;
}

/**
 * @param context  Docusaurus's LoadContext (siteConfig, baseUrl of this locale's build, i18n)
 * @param options  the plugin's options (see normalizeOptions)
 * @param {{production?: boolean, sources?: string[]}} [env]  for tests: whether this is `docusaurus
 *   build` (default: NODE_ENV is "production", which the build command sets) and where the scripts are
 */
function textbookChatPlugin(context, options, env = {}) {
  const opts = normalizeOptions(options);
  const siteConfig = (context && context.siteConfig) || {};
  // Default book id: the site's projectName, so two books on one origin keep separate chats.
  if (!opts.bookId && siteConfig.projectName) opts.bookId = siteConfig.projectName;
  // The site's own URL and base path: the widget keeps citations under it on the reader's origin
  // (the same build served locally or on a preview deployment).
  if (!opts.siteUrl) opts.siteUrl = siteUrlOf(context);

  const production = env.production != null ? env.production : process.env.NODE_ENV === 'production';
  let scripts = null;
  let src;
  if (opts.copyScripts && production) {
    scripts = findScripts(env.sources || SOURCES);
    if (!scripts) {
      throw new Error(`[textbook-chat] widget.js not found in ${(env.sources || SOURCES).join(' or ')}: ` +
        'reinstall docusaurus-plugin-textbook-chat, or set copyScripts: false to load it from apiUrl');
    }
    // this build's base (a translation's build is served under its locale: /ur/textbook-chat/…)
    const base = (context && context.baseUrl) || siteConfig.baseUrl || '/';
    src = `${base.replace(/\/*$/, '/')}${FOLDER}/widget.js?v=${scriptsHash(scripts)}`;
  }
  const tag = scriptTag(opts, src);

  return {
    name: 'textbook-chat',
    injectHtmlTags() {
      return { postBodyTags: [tag] };
    },
    async postBuild({ outDir }) {
      if (!scripts) return;
      const target = path.join(outDir, FOLDER);
      await fs.promises.mkdir(target, { recursive: true });
      for (const name of scripts.files) {
        await fs.promises.copyFile(path.join(scripts.dir, name), path.join(target, name));
      }
    },
  };
}

module.exports = textbookChatPlugin;
// Docusaurus calls this before the plugin; errors stop the build with the message above.
module.exports.validateOptions = ({ options }) => normalizeOptions(options);
module.exports.normalizeOptions = normalizeOptions;
module.exports.scriptTag = scriptTag;
module.exports.findScripts = findScripts;
module.exports.FOLDER = FOLDER;
