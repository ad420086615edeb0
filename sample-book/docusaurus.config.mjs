// Docusaurus configuration of the sample textbook that ships with this repo (`make sample-site`
// builds it). An ES module (.mjs; the site's .js files are left to the bundler). The values `textbook-chat ingest`
// reads without running JavaScript are plain string literals: the site's address and base, its
// title, its projectName (the book's id) and the docs' route base.
//
// The site is served at the root of its host (baseUrl '/', as the nginx root of docs/deploy.md),
// with the book's pages under /book/docs/: the URLs the index records, the demo server serves
// (`make run`) and the tests ask about.
//
// TEXTBOOK_CHAT_API: the chat server the built pages talk to (default: the one `make run` starts).

export default {
  title: 'Signals and Systems Primer',
  tagline: 'A short, hands-on introduction to sampling, spectra and filters',
  url: 'http://127.0.0.1:8000',
  baseUrl: '/',
  projectName: 'sample-book',
  onBrokenLinks: 'throw',
  favicon: 'img/favicon.svg',
  // .md pages are CommonMark (their text may hold braces and angle brackets), .mdx pages MDX
  markdown: { format: 'detect' },
  future: { v4: true, faster: true },
  presets: [
    [
      'classic',
      {
        docs: {
          routeBasePath: 'book/docs',
          sidebarPath: './sidebars.mjs',
        },
        blog: false,
      },
    ],
  ],
  plugins: [
    // installed from the plugin's npm package (package.json: a `file:` dependency npm packs)
    [
      'docusaurus-plugin-textbook-chat',
      { apiUrl: process.env.TEXTBOOK_CHAT_API || 'http://127.0.0.1:8000' },
    ],
  ],
  // ?rerender=1 makes the article re-render after load, as sites with their own Root do (src/theme)
  themeConfig: {
    navbar: {
      title: 'Signals and Systems Primer',
      items: [{ type: 'docSidebar', sidebarId: 'bookSidebar', position: 'left', label: 'Book' }],
    },
  },
};
