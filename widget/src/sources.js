// Server sources → what a message shows and stores: a label and a link with a text fragment.
import { safeUrl } from './markdown.js';
import { fragmentUrl } from './fragment.js';

/**
 * @param {object[]} list  ChatResponse.sources
 * @param {string} page  URL of the page the question was asked on (base for relative URLs,
 *   and the page a "selected_text" source comes from)
 */
export function toSources(list, page) {
  return (Array.isArray(list) ? list : []).map((s) => {
    const selected = s.source_type === 'selected_text';
    const raw = s.url || (selected ? page : '');
    const url = raw ? safeUrl(raw, page) : null; // no URL: a label without a link
    const label = selected
      ? 'Your selected passage'
      : s.source_location || [s.chapter, s.heading].filter(Boolean).join(' › ') || s.source_file || url || 'Source';
    return { label, url, href: url && fragmentUrl(url, s.content) };
  });
}
