// Server sources → what a message shows and stores: label, link with a text fragment, excerpt.
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
    const url = safeUrl(s.url || (selected ? page : ''), page);
    const label = selected
      ? 'Your selected passage'
      : s.source_location || [s.chapter, s.heading].filter(Boolean).join(' › ') || s.source_file || url || 'Source';
    const content = String(s.content || '');
    return {
      label,
      url,
      href: url && fragmentUrl(url, content),
      excerpt: content.length > 200 ? content.slice(0, 200) + '…' : content,
    };
  });
}
