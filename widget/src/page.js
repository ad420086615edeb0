// What the page tells about itself: the locale and docs version Docusaurus renders into it
// (meta tags docusaurus_locale / docusaurus_version, else <html lang>), so answers can cite
// pages of the reader's language and version first.

/** @returns {{locale?: string, docsVersion?: string}} */
export function pageContext(doc = document) {
  const meta = (name) => (doc.querySelector(`meta[name="${name}"]`)?.getAttribute('content') || '').trim();
  const locale = meta('docusaurus_locale') || doc.documentElement?.lang;
  const docsVersion = meta('docusaurus_version');
  return { ...(locale && { locale }), ...(docsVersion && { docsVersion }) };
}
