// The article's content, re-mounted after load on request: as on textbook sites whose own Root,
// theme wrapper or client-side auth renders the page again once it has loaded, so the article's
// text nodes are replaced (a selection or a highlight made on the first ones is lost).
//
// Off unless asked for: open any page with ?rerender=1 and, for the rest of the tab's life (kept
// in sessionStorage, so it holds for citation links and client-side navigation too), every doc
// page re-mounts its content once, 200 ms after it mounts (&rerender-delay=MS for another delay).
// ?rerender=0 turns it off again. <html data-rerendered="N"> counts the re-mounts in this document.
import React, { useEffect, useState } from 'react';
import Content from '@theme-original/DocItem/Content';

const KEY = 'sample-site:rerender';
const DEFAULT_DELAY_MS = 200;

/** The delay in ms when re-rendering is on for this tab, else null. */
function rerenderDelay() {
  const query = new URLSearchParams(window.location.search);
  const asked = query.get('rerender');
  let setting = null;
  if (asked !== null) setting = asked === '0' ? null : String(Number(query.get('rerender-delay')) || DEFAULT_DELAY_MS);
  try {
    if (asked === '0') sessionStorage.removeItem(KEY);
    else if (setting) sessionStorage.setItem(KEY, setting);
    else setting = sessionStorage.getItem(KEY);
  } catch {
    // no sessionStorage: this page only
  }
  return setting ? Number(setting) : null;
}

export default function ContentWrapper(props) {
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    const delay = rerenderDelay();
    if (delay === null) return undefined;
    const timer = setTimeout(() => setGeneration((n) => n + 1), delay);
    return () => clearTimeout(timer);
  }, []);
  useEffect(() => {
    if (!generation) return;
    const html = document.documentElement;
    html.dataset.rerendered = String(Number(html.dataset.rerendered || 0) + 1);
  }, [generation]);
  return <Content key={generation} {...props} />;
}
