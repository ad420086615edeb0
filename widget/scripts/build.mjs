// Bundles widget/src/main.js into one minified classic script: widget/dist/widget.js.
// An IIFE, not a module, so that document.currentScript works for reading data-* config.
// If WIDGET_OUT is set, the built file is also copied there (e.g. the server's static folder).
import { build, transform } from 'esbuild';
import { copyFile, mkdir, readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const widget = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const outfile = resolve(widget, 'dist/widget.js');
const { version } = JSON.parse(await readFile(resolve(widget, '../package.json'), 'utf8'));

// styles.js keeps the stylesheet as one readable template literal; ship it minified as CSS.
const minifyStyles = {
  name: 'minify-styles',
  setup(b) {
    b.onLoad({ filter: /[\\/]styles\.js$/ }, async ({ path }) => {
      const src = await readFile(path, 'utf8');
      const start = src.indexOf('export default `') + 16;
      const css = src.slice(start, src.lastIndexOf('`'));
      const { code } = await transform(css, { loader: 'css', minify: true });
      return { contents: `export default ${JSON.stringify(code.trim())};`, loader: 'js' };
    });
  },
};

await build({
  entryPoints: [resolve(widget, 'src/main.js')],
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
  const dest = resolve(process.env.WIDGET_OUT);
  await mkdir(dirname(dest), { recursive: true });
  await copyFile(outfile, dest);
  console.log(`copied to ${dest}`);
}
