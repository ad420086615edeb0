// Docusaurus configuration for the sample textbook that ships with this repo.
// Kept deliberately simple: a plain object with string literals, so tools can
// read url, baseUrl, title and routeBasePath without running JavaScript.

module.exports = {
  title: 'Signals and Systems Primer',
  tagline: 'A short, hands-on introduction to sampling, spectra and filters',
  url: 'http://127.0.0.1:8000',
  baseUrl: '/book/',
  onBrokenLinks: 'warn',
  favicon: 'img/favicon.ico',
  presets: [
    [
      'classic',
      {
        docs: {
          routeBasePath: 'docs',
          sidebarPath: './sidebars.js',
        },
        blog: false,
      },
    ],
  ],
};
