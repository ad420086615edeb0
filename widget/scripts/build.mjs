// Bundles the widget into two minified classic scripts:
//   widget/dist/widget.js        (src/main.js)        what every page loads: bubble, shortcut, "Ask about this"
//   widget/dist/widget-panel.js  (src/panel-main.js)  the chat panel, loaded by widget.js when first needed
// IIFEs, not modules, so that document.currentScript works for reading data-* config.
// If WIDGET_OUT is set (a path for widget.js), both files are also copied to its folder
// (e.g. the server's static folder).
import { build, transform } from 'esbuild';
import { copyFile, mkdir, readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const widget = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const PARTS = {
  'widget.js': 'src/main.js',
  'widget-panel.js': 'src/panel-main.js',
  'widget-insights.js': 'src/insights-main.js', // the author's view, only with ?textbook-chat=insights
};
const { version } = JSON.parse(await readFile(resolve(widget, '../package.json'), 'utf8'));

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

for (const [name, entry] of Object.entries(PARTS)) {
  const outfile = resolve(widget, 'dist', name);
  await build({
    entryPoints: [resolve(widget, entry)],
    outfile,
    bundle: true,
    minify: true,
    format: 'iife',
    target: ['es2020', 'chrome100', 'firefox100', 'safari15'],
    define: { __VERSION__: JSON.stringify(version) },
    legalComments: 'none',
    plugins: [minifyStyles],
    logLevel: 'warning',
  });
  console.log(`built ${outfile}`);
  if (process.env.WIDGET_OUT) {
    const dest = join(dirname(resolve(process.env.WIDGET_OUT)), name);
    await mkdir(dirname(dest), { recursive: true });
    await copyFile(outfile, dest);
    console.log(`copied to ${dest}`);
  }
}
