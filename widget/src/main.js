// Entry point of widget.js, a classic script:
//   <script src="https://chat.example.org/widget.js" data-api="https://chat.example.org" defer></script>
// Exactly one global: window.textbookChat ({version, config, open, close, ask, reset}).
// The panel comes from widget-panel.js beside it, loaded when the reader first needs it, by a URL
// with its content hash (put in by the build): cached for good, and a new build is a new URL.
import { readConfig } from './config.js';
import { mount, HOST_ID } from './app.js';

const VERSION = typeof __VERSION__ === 'string' ? __VERSION__ : 'dev';
const HASHES = typeof __PART_HASHES__ === 'object' ? __PART_HASHES__ : {}; // part → its content's hash
const TAG = '[textbook-chat]';

function boot() {
  if (window.textbookChat || document.getElementById(HOST_ID)) return; // loaded twice: keep the first
  if (!window.fetch || !window.CSSStyleSheet || !Element.prototype.attachShadow) {
    console.warn(TAG, 'unsupported browser');
    return;
  }
  // currentScript is only set while this script first runs (and never inside modules).
  const script = document.currentScript;
  const src = script ? script.src : '';
  const cfg = readConfig(script ? script.dataset : {}, src, location.href, (m) => console.warn(TAG, m));
  const file = /\/widget\.js(?=[?#]|$)/;
  const folder = file.test(src) ? src.split(/[?#]/)[0].replace(file, '') : cfg.api;
  const urlOf = (part) => `${folder}/widget-${part}.js?v=${HASHES[part] || VERSION}`;
  const partUrl = urlOf('panel');
  const api = (window.textbookChat = { version: VERSION, config: cfg, _partUrl: urlOf });

  const start = () => {
    try {
      Object.assign(api, mount(cfg, partUrl, api));
    } catch (e) {
      console.error(TAG, 'failed to start:', e);
    }
  };
  if (document.body) start();
  else document.addEventListener('DOMContentLoaded', start, { once: true });
}

boot();
