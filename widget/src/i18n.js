// The widget's own words in the page's language (`<html lang>`). English is complete and the
// fallback for any missing string. A site adds or overrides languages before the script runs:
//   <script>window.TextbookChatStrings = { fr: { title: 'Demander au manuel', ... } }</script>
// using the keys of EN below and of panel-strings.js. `{0}` is replaced by an argument.
// widget.js carries only the words it shows itself (the bubble, "Ask about this", the panel's
// stand-in while the server is down); the panel's come with it (panel-strings.js).

export const UNAVAILABLE = 'The assistant is unavailable right now.';

const EN = {
  title: 'Ask the textbook',
  ask: 'Ask about this',
  retry: 'Retry',
  503: UNAVAILABLE,
};

const UR = {
  title: 'کتاب سے پوچھیں',
  ask: 'اس کے بارے میں پوچھیں',
  retry: 'دوبارہ کوشش کریں',
  503: 'معاون اس وقت دستیاب نہیں۔',
};

const ES = { title: 'Pregunta al libro', ask: 'Preguntar sobre esto', retry: 'Reintentar', 503: 'El asistente no está disponible ahora.' };
const JA = { title: '本書に質問', ask: 'これについて質問', retry: '再試行', 503: 'アシスタントは現在利用できません。' };
const ZH = { title: '向本书提问', ask: '就此提问', retry: '重试', 503: '助手暂时不可用。' };

const BUILT_IN = { en: EN, ur: UR, es: ES, ja: JA, zh: ZH };
/** Languages whose panel words come as a part of their own (widget-<lang>.js, loaded with the panel;
 * the build makes one from each strings-<lang>.js). */
export const LANGUAGE_PARTS = ['ur', 'es', 'ja', 'zh'];
const RTL = /^(ar|arc|ckb|dv|fa|he|ks|ps|sd|ug|ur|yi)$/;

/** "ur-PK" → "ur". */
export const baseLang = (lang) => String(lang || 'en').toLowerCase().split(/[-_]/)[0];

export const isRtl = (lang) => RTL.test(baseLang(lang));

/**
 * t(key, arg) for `lang`: the site's strings first (exact tag, then base language), then
 * ours (`more`: further tables by language, as panel-strings.js has them), then English.
 */
export function strings(lang, extra, more = {}) {
  const tag = String(lang || '').toLowerCase();
  const base = baseLang(lang);
  const site = extra && typeof extra === 'object' ? extra : {};
  const table = { ...EN, ...more.en, ...BUILT_IN[base], ...more[base], ...site[base], ...site[tag] };
  return (key, arg) => String(table[key] ?? key).replace('{0}', arg);
}
