// Suggested questions for the page the reader is on, from its headings (no model needed).

const MAX = 3;
const SELECTOR = 'article h2, article h3, main h2, main h3';

/** Heading text without Docusaurus's "#" permalink and zero-width characters. */
export const headingText = (el) => (el.textContent || '').replace(/[\u200b#]/g, '').replace(/\s+/g, ' ').trim();

/**
 * Up to three questions, one per distinct section heading of the main content, in page order;
 * a page without sections gets one about its title (h1). Headings inside `skip` (the widget)
 * and numbers-only headings are left out.
 * @param {Document} doc
 * @param {Element} skip
 * @param {(key: string, arg?: string) => string} t  i18n: t('explain', heading)
 */
export function pageQuestions(doc, skip, t) {
  const seen = new Set();
  const pick = (sel) => {
    const out = [];
    for (const el of doc.querySelectorAll(sel)) {
      const text = headingText(el);
      const key = text.toLowerCase();
      if (out.length === MAX || (skip && skip.contains(el)) || text.length < 3 || text.length > 80) continue;
      if (seen.has(key) || /^[\d\s.]+$/.test(text)) continue;
      seen.add(key);
      out.push(t('explain', text));
    }
    return out;
  };
  const qs = pick(SELECTOR);
  return qs.length ? qs : pick('article h1, main h1, h1');
}
