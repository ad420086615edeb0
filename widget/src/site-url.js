// Citations stay on the reader's site. The index records each page under the book's configured
// URL (its production host); the same build served elsewhere (localhost, a preview deployment,
// a mirror) would send every citation away. A citation under the book's own site URL therefore
// opens on the origin the reader is on, under the base path the book is served from there.

/**
 * @param {string} url  a citation's absolute URL
 * @param {string} siteUrl  the book's site URL with its base path (data-site-url), e.g.
 *   "https://books.example.org/robotics/"; empty: URLs are left as they are
 * @param {string} page  the URL of the page the reader is on
 * @param {string} [readerBase]  the base path the book has where the reader is; by default
 *   where the page's path has the book's base
 */
export function onReadersSite(url, siteUrl, page, readerBase) {
  if (!url || !siteUrl) return url;
  try {
    const site = new URL(siteUrl);
    const target = new URL(url);
    const here = new URL(page);
    const base = site.pathname.endsWith('/') ? site.pathname : site.pathname + '/';
    if (target.origin !== site.origin || !(target.pathname + '/').startsWith(base) || here.origin === site.origin)
      return url;
    // the reader's base path: where this page's path has the book's base (the build is the same)
    const at = here.pathname.indexOf(base);
    readerBase ||= at >= 0 ? here.pathname.slice(0, at) + base : base;
    return here.origin + readerBase + target.pathname.slice(base.length) + target.search + target.hash;
  } catch {
    return url;
  }
}

/**
 * Without data-site-url: the site a page was built for, from its canonical link (Docusaurus
 * writes one, with the site's configured URL) or og:url, and the base path the same build has
 * where the reader is: [siteUrl, readerBase], or [] when the page does not tell.
 * @param {Document} doc  @param {string} page  the page's URL
 */
export function builtFor(doc, page) {
  try {
    const site = new URL(doc.querySelector('link[rel=canonical]')?.href || doc.querySelector('meta[property="og:url"]').content);
    const a = site.pathname.replace(/\/$/, '').split('/');
    const b = new URL(page).pathname.replace(/\/$/, '').split('/');
    while (a.length && a[a.length - 1] === b[b.length - 1]) a.pop(), b.pop(); // the path they share
    return [site.origin + a.join('/') + '/', b.join('/') + '/'];
  } catch {
    return [];
  }
}

/** url → the same page on the reader's site: under `siteUrl`, else under the one the page was built for. */
export function readersLink(siteUrl, doc = document, page = location.href) {
  const [site, base] = siteUrl ? [siteUrl] : builtFor(doc, page);
  return (url) => onReadersSite(url, site, page, base);
}
