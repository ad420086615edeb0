// Prints the raw, gzip and brotli sizes of the built widget and fails over the budget.
// Budget: 10.5 KB gzip for everything a page downloads (the widget is one file); raised from 10 KB
// when sources gained breadcrumb labels and the page's locale, version and book id (+0.3 KB).
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, gzipSync } from 'node:zlib';

const BUDGET_GZIP = 10.5 * 1024;
const file = resolve(dirname(fileURLToPath(import.meta.url)), '../dist/widget.js');
const buf = readFileSync(file);
const gz = gzipSync(buf, { level: 9 }).length;
const br = brotliCompressSync(buf).length;
const kb = (n) => `${(n / 1024).toFixed(2)} KB`;
console.log(`widget.js  raw ${kb(buf.length)} (${buf.length} B)  gzip ${kb(gz)} (${gz} B)  brotli ${kb(br)} (${br} B)`);
if (gz > BUDGET_GZIP) {
  console.error(`over budget: gzip ${gz} B > ${BUDGET_GZIP} B`);
  process.exit(1);
}
