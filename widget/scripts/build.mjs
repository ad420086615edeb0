// Bundles the widget into two minified classic scripts:
//   widget/dist/widget.js        (src/main.js)        what every page loads: bubble, shortcut, "Ask about this"
//   widget/dist/widget-panel.js  (src/panel-main.js)  the chat panel, loaded by widget.js when first needed
// IIFEs, not modules, so that document.currentScript works for reading data-* config.
// The parts are built first: widget.js loads each by a URL with its content hash
// (widget-panel.js?v=<hash>), so that a part may be cached for good and a new build is still
// fetched. Each script gets precompressed copies beside it (.gz and .br, Node's own zlib), which
// the server (and nginx's gzip_static) send to browsers that accept them.
// If WIDGET_OUT is set (a path for widget.js), all files are also copied to its folder
// (e.g. the server's static folder).
import { build, transform } from 'esbuild';
import { createHash } from 'node:crypto';
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { LANGUAGE_PARTS } from '../src/i18n.js';

const widget = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const PARTS = {
  'widget.js': 'src/main.js',
  'widget-panel.js': 'src/panel-main.js',
  'widget-insights.js': 'src/insights-main.js', // the author's view, only with ?textbook-chat=insights
  'widget-quiz.js': 'src/quiz-main.js', // a quiz's cards, loaded by the panel the first time a quiz shows
  // and one part a language (widget-ur.js, widget-ja.js, …): the panel's words in it (strings-<lang>.js),
  // loaded with the panel on a page in that language
  ...Object.fromEntries(LANGUAGE_PARTS.map((lang) => [`widget-${lang}.js`, { lang }])),
};

/** A language part's entry: its words, handed to the widget.js that asked (app.js). */
const languagePart = (lang) => ({
  contents: `import words from './strings-${lang}.js';\nconst api = window.textbookChat;\n` +
    `if (api && api._lang) api._lang(${JSON.stringify(lang)}, words);\n`,
  resolveDir: resolve(widget, 'src'),
  sourcefile: `lang-${lang}.js`,
});
const { version } = JSON.parse(await readFile(resolve(widget, '../package.json'), 'utf8'));

/** The content hash in a part's URL (server/api/widget_files.py computes the same). */
const hashOf = (bytes) => createHash('sha256').update(bytes).digest('hex').slice(0, 10);

/** `file`.gz and `file`.br beside it: gzip at level 9 and brotli at quality 11, both deterministic. */
async function precompress(file, bytes) {
  const brotli = brotliCompressSync(bytes, {
    params: {
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
    },
  });
  await writeFile(`${file}.gz`, gzipSync(bytes, { level: 9 }));
  await writeFile(`${file}.br`, brotli);
  return [`${file}.gz`, `${file}.br`];
}

// The styles modules keep their stylesheet as one readable template literal; ship it minified.
const minifyStyles = {
  name: 'minify-styles',
  setup(b) {
    b.onLoad({ filter: /[\\/](panel-)?styles\.js$/ }, async ({ path }) => {
      const src = await readFile(path, 'utf8');
      const start = src.indexOf('export default `') + 16;
      const css = src.slice(start, src.lastIndexOf('`'));
      const { code } = await transform(css, { loader: 'css', minify: true });
      return { contents: `export default ${JSON.stringify(code.trim())};`, loader: 'js' };
    });
  },
};

const hashes = {}; // part ("panel") → content hash, for the loader's URLs
const loaderLast = Object.keys(PARTS).sort((a, b) => (a === 'widget.js') - (b === 'widget.js'));
for (const name of loaderLast) {
  const entry = PARTS[name];
  const outfile = resolve(widget, 'dist', name);
  await build({
    ...(typeof entry === 'string' ? { entryPoints: [resolve(widget, entry)] } : { stdin: languagePart(entry.lang) }),
    outfile,
    bundle: true,
    minify: true,
    format: 'iife',
    target: ['es2020', 'chrome100', 'firefox100', 'safari15'],
    define: { __VERSION__: JSON.stringify(version), __PART_HASHES__: JSON.stringify(hashes) },
    legalComments: 'none',
    plugins: [minifyStyles],
    logLevel: 'warning',
  });
  const bytes = await readFile(outfile);
  if (name !== 'widget.js') hashes[name.slice('widget-'.length, -'.js'.length)] = hashOf(bytes);
  const files = [outfile, ...(await precompress(outfile, bytes))];
  console.log(`built ${outfile} (+ .gz, .br)`);
  if (process.env.WIDGET_OUT) {
    const folder = dirname(resolve(process.env.WIDGET_OUT));
    await mkdir(folder, { recursive: true });
    for (const file of files) await copyFile(file, join(folder, file.slice(dirname(outfile).length + 1)));
    console.log(`copied to ${join(folder, name)} (+ .gz, .br)`);
  }
}
