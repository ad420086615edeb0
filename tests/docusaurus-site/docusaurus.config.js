// A minimal real Docusaurus 3 site with the textbook chat plugin, for the end-to-end browser
// test (tests/browser/test_docusaurus_site.py). Instead of preset-classic it uses the classic
// theme and the docs plugin only: the same theme, about 40 MB less to install. Docusaurus Faster
// (Rspack, SWC) makes the build take seconds instead of minutes.
//
// TEXTBOOK_CHAT_API: the chat server the built pages talk to (the test sets it).
// An Urdu locale (right-to-left, built under /ur/) shows the widget in the page's language;
// i18n/ur holds the pages in Urdu.

module.exports = {
  title: 'Textbook chat test site',
  tagline: 'A tiny book for the textbook chat plugin',
  url: 'https://textbook-chat.example.org', // a production host: the test serves the build on 127.0.0.1
  baseUrl: '/',
  projectName: 'docusaurus-test-site',
  onBrokenLinks: 'throw',
  future: { v4: true, faster: true },
  i18n: {
    defaultLocale: 'en',
    locales: ['en', 'ur'],
    localeConfigs: { ur: { label: 'اردو', direction: 'rtl', htmlLang: 'ur' } },
  },
  themes: ['@docusaurus/theme-classic'],
  plugins: [
    [
      '@docusaurus/plugin-content-docs',
      { routeBasePath: '/', sidebarPath: require.resolve('./sidebars.js') },
    ],
    // The plugin as a path relative to the site folder, as in widget/README.md.
    [
      '../../widget/docusaurus-plugin',
      {
        apiUrl: process.env.TEXTBOOK_CHAT_API || 'http://127.0.0.1:8000',
        bookId: 'sample-book',
      },
    ],
  ],
  themeConfig: {
    navbar: { title: 'Test book' },
  },
};
