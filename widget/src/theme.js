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

const channels = (rgb) => (String(rgb).match(/[\d.]+/g) || [0, 0, 0]).slice(0, 3).map(Number);
const luminance = (c) => c.reduce((sum, v, i) => ((v /= 255), sum + [0.2126, 0.7152, 0.0722][i] * (v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4)), 0);
/** WCAG's contrast ratio of two [r, g, b] colours. */
export const ratio = (a, b) => {
  const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p);
  return (x + 0.05) / (y + 0.05);
};

/**
 * The accent as a colour for text (links) on the background, all as computed "rgb(…)" strings:
 * the accent itself where it reads at 4.5:1, else mixed toward the text colour until it does.
 */
export function readable(accent, bg, fg) {
  const [a, b, f] = [accent, bg, fg].map(channels);
  for (let p = 1; p > 0; p -= 0.1) {
    const c = a.map((v, i) => Math.round(v * p + f[i] * (1 - p)));
    if (ratio(c, b) >= 4.5) return `rgb(${c})`;
  }
  return fg;
}
