// Entry point of widget.js, a classic script:
//   <script src="https://chat.example.org/widget.js" data-api="https://chat.example.org" defer></script>
// Exactly one global: window.textbookChat ({version, config, open, close, ask, reset}).
import { readConfig } from './config.js';
import { mount, HOST_ID } from './app.js';

const VERSION = typeof __VERSION__ === 'string' ? __VERSION__ : 'dev';

function boot() {
  if (window.textbookChat || document.getElementById(HOST_ID)) return; // loaded twice: keep the first
  if (!window.fetch || !window.CSSStyleSheet || !Element.prototype.attachShadow) {
    console.warn('[textbook-chat] unsupported browser');
    return;
  }
  // currentScript is only set while this script first runs (and never inside modules).
  const script = document.currentScript;
  const cfg = readConfig(script ? script.dataset : {}, script ? script.src : '', location.href);
  const api = (window.textbookChat = { version: VERSION, config: cfg });

  const start = () => {
    try {
      Object.assign(api, mount(cfg));
    } catch (e) {
      console.error('[textbook-chat] failed to start:', e);
    }
  };
  if (document.body) start();
  else document.addEventListener('DOMContentLoaded', start, { once: true });
}

boot();
