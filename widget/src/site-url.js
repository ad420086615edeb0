// Citations stay on the reader's site. The index records each page under the book's configured
// URL (its production host); the same build served elsewhere (localhost, a preview deployment,
// a mirror) would send every citation away. A citation under the book's own site URL therefore
// opens on the origin the reader is on, under the base path the book is served from there.

/**
 * @param {string} url  a citation's absolute URL
 * @param {string} siteUrl  the book's site URL with its base path (data-site-url), e.g.
 *   "https://books.example.org/robotics/"; empty: URLs are left as they are
 * @param {string} page  the URL of the page the reader is on
 */
export function onReadersSite(url, siteUrl, page) {
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
    const readerBase = at >= 0 ? here.pathname.slice(0, at) + base : base;
    return here.origin + readerBase + target.pathname.slice(base.length) + target.search + target.hash;
  } catch {
    return url;
  }
}
