// Light/dark: follows html[data-theme] (Docusaurus) live; without it, the OS preference at load.

export function watchTheme(apply) {
  const html = document.documentElement;
  const update = () => {
    const t = html.getAttribute('data-theme');
    apply(t ? t === 'dark' : matchMedia('(prefers-color-scheme: dark)').matches);
  };
  new MutationObserver(update).observe(html, { attributes: true, attributeFilter: ['data-theme'] });
  update();
}

/**
 * Text colour for a background given as a computed "rgb(r, g, b)" string: near-black on
 * light colours, white otherwise (perceived brightness, YIQ ≥ 128). Unparseable: white.
 */
export function contrastText(rgb) {
  const [r, g, b] = (String(rgb).match(/[\d.]+/g) || []).map(Number);
  return 0.299 * r + 0.587 * g + 0.114 * b >= 128 ? '#111' : '#fff';
}
