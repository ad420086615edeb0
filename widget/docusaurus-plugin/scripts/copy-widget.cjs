'use strict';
// `npm pack` (and npm installing this folder as a dependency) runs this as "prepare": it puts the
// widget's built scripts into dist/, so the package carries them and a site's build copies them
// from there (index.js), with no checkout of the chat server beside it.
// From a checkout: the chat server's static folder (`make widget` builds them there). Outside one
// (a copy of this folder with dist/ already filled), dist/ is kept as it is. `--clean` (postpack)
// removes dist/ again in a checkout, where the plugin used by path reads server/static.
const fs = require('fs');
const path = require('path');
const { findScripts } = require('../index.js');

const dist = path.join(__dirname, '..', 'dist');
if (process.argv.includes('--clean')) {
  // postpack, in a checkout: the package has them; the plugin used by path reads server/static
  if (fs.existsSync(path.join(__dirname, '..', '..', '..', 'pyproject.toml'))) fs.rmSync(dist, { recursive: true, force: true });
  process.exit(0);
}
const built = findScripts([path.join(__dirname, '..', '..', '..', 'server', 'static')]);
if (built) {
  fs.rmSync(dist, { recursive: true, force: true });
  fs.mkdirSync(dist, { recursive: true });
  for (const name of built.files) fs.copyFileSync(path.join(built.dir, name), path.join(dist, name));
  console.error(`docusaurus-plugin-textbook-chat: ${built.files.join(', ')} from ${built.dir}`);
} else if (!findScripts([dist])) {
  console.error('docusaurus-plugin-textbook-chat: no built widget.js (run `make widget` in the repository first)');
  process.exit(1);
}
