// Prints the raw, gzip and brotli sizes of the built widget and fails over the budgets.
// Budgets (gzip): widget.js, which every page downloads, 8.5 KB (it was 10 KB as one file before
// the split, then 8 KB; the bubble's and "Ask about this"'s words in Spanish, Japanese and Chinese
// came to 0.35 KB); widget-panel.js, downloaded once when a reader first opens the chat, 14 KB;
// widget-insights.js, the author's view (never loaded by readers), 3 KB; widget-ur.js, widget-ja.js
// and each language part, the panel's words in that language (loaded with it on its pages only), 2 KB.
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { LANGUAGE_PARTS } from '../src/i18n.js';

const BUDGET = { 'widget.js': 8.5 * 1024, 'widget-panel.js': 14.25 * 1024, // 14 KiB until a citation linked to the words it quotes (BENCHMARKS.md)
  'widget-insights.js': 3 * 1024, 'widget-quiz.js': 3 * 1024,
  ...Object.fromEntries(LANGUAGE_PARTS.map((lang) => [`widget-${lang}.js`, 2 * 1024])) };
const dist = resolve(dirname(fileURLToPath(import.meta.url)), '../dist');
const kb = (n) => `${(n / 1024).toFixed(2)} KB`;
let total = 0;
let over = false;
for (const [name, budget] of Object.entries(BUDGET)) {
  const buf = readFileSync(resolve(dist, name));
  const gz = gzipSync(buf, { level: 9 }).length;
  const br = brotliCompressSync(buf).length;
  total += gz;
  console.log(`${name.padEnd(16)} raw ${kb(buf.length)} (${buf.length} B)  gzip ${kb(gz)} (${gz} B)  brotli ${kb(br)} (${br} B)`);
  if (gz > budget) (over = true), console.error(`${name} over budget: gzip ${gz} B > ${budget} B`);
}
console.log(`${'together'.padEnd(16)} gzip ${kb(total)} (${total} B)`);
if (over) process.exit(1);
