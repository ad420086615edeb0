// The chat server not answering. The site's build carries the loader (and the panel) itself, so
// the bubble is there while the server is down; the panel then says so, offers Retry and tries
// again on its own, every FIRST_MS doubling up to a minute, until the server answers.
import { h } from './dom.js';

const FIRST_MS = 5000;
const MAX_MS = 60000;

/**
 * "The assistant is unavailable right now." with a Retry button.
 * @param {(key: string) => string} t
 * @param {() => Promise<boolean>} check  does it answer now?
 * @param {() => void} done  run once it does (the notice has removed itself)
 */
export function unavailable(t, check, done) {
  let wait = FIRST_MS;
  let timer = 0;
  let busy = false;
  const again = async () => {
    clearTimeout(timer);
    if (busy) return;
    busy = true;
    const ok = await check();
    busy = false;
    if (ok) return el.remove(), done();
    timer = setTimeout(again, wait);
    wait = Math.min(wait * 2, MAX_MS);
  };
  const el = h('div', { class: 'down', role: 'status' }, h('p', null, t('503')), h('button', { type: 'button', onclick: again }, t('retry')));
  timer = setTimeout(again, wait);
  return el;
}

/**
 * Does the chat server answer? Its /health, which says 503 when it cannot answer questions. A
 * server that refuses this site (CORS) still answers a no-cors request: that is told on asking.
 */
export const answers = (api) =>
  fetch(api + '/health', { cache: 'no-store' }).then(
    (r) => r.ok,
    () => fetch(api + '/health', { mode: 'no-cors', cache: 'no-store' }).then(() => true, () => false)
  );
