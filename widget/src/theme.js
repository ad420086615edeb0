// Light/dark: follows html[data-theme] (Docusaurus) live, else the OS preference.

export function watchTheme(apply) {
  const html = document.documentElement;
  const mq = window.matchMedia ? matchMedia('(prefers-color-scheme: dark)') : null;
  const update = () => {
    const t = html.getAttribute('data-theme');
    apply(t ? t === 'dark' : !!(mq && mq.matches));
  };
  new MutationObserver(update).observe(html, { attributes: true, attributeFilter: ['data-theme'] });
  mq?.addEventListener?.('change', update);
  update();
}

/**
 * Text colour for a background given as a computed "rgb(r, g, b)" string: white or near-black,
 * whichever has the higher WCAG contrast. Unparseable colours get white.
 */
export function contrastText(rgb) {
  const m = String(rgb).match(/rgba?\(\s*([\d.]+)[\s,]+([\d.]+)[\s,]+([\d.]+)/);
  if (!m) return '#fff';
  const lin = (c) => ((c /= 255) <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  const L = 0.2126 * lin(+m[1]) + 0.7152 * lin(+m[2]) + 0.0722 * lin(+m[3]);
  const white = 1.05 / (L + 0.05);
  const dark = (L + 0.05) / 0.0556; // #111
  return white >= dark ? '#fff' : '#111';
}
