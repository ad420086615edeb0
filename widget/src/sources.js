// Server sources → what a message shows and stores: a label and a link with a text fragment.
import { safeUrl } from './markdown.js';
import { fragmentUrl } from './fragment.js';

/**
 * @param {object[]} list  ChatResponse.sources
 * @param {string} page  URL of the page the question was asked on (base for relative URLs,
 *   and the page a "selected_text" source comes from)
 * @param {string} locale  the page's locale: a source in another one says so
 * @param {string} selectedLabel  the label of the reader's own passage, in their language
 * @param {(url: string) => string} link  a source's URL on the reader's site (site-url.js readersLink)
 */
export function toSources(list, page, locale = '', selectedLabel = 'Your selected passage', link = (u) => u) {
  return (Array.isArray(list) ? list : []).map((s) => {
    const selected = s.source_type === 'selected_text';
    const raw = link(s.url) || (selected ? page : '');
    const url = raw ? safeUrl(raw, page) : null; // no URL: a label without a link
    const out = { label: selected ? selectedLabel : '', url, href: url && fragmentUrl(url, s.content) };
    const L = s.labels || [];
    const own = L[L.length - 1];
    if (own && !selected) {
      // short: the page's label › the section; the whole breadcrumb path in the tooltip
      const section = s.heading && s.heading !== own && s.heading !== s.chapter ? ' › ' + s.heading : '';
      out.label = own + section;
      out.full = L.join(' › ') + section;
    } else if (!selected) out.label = s.source_location || [s.chapter, s.heading].filter(Boolean).join(' › ') || s.source_file || url || 'Source';
    // never send a reader to a page in another language without saying so
    if (!selected && s.locale && locale && s.locale.slice(0, 2) !== locale.slice(0, 2))
      (out.label += ` (${s.locale})`), (out.full = (out.full || out.label) + ': another language');
    return out;
  });
}
