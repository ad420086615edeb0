// The widget's own words in the page's language (`<html lang>`). English is complete and the
// fallback for any missing string. A site adds or overrides languages before the script runs:
//   <script>window.TextbookChatStrings = { fr: { title: 'Demander au manuel', ... } }</script>
// using the keys of EN below. `{0}` is replaced by an argument.
import { ERROR_MESSAGES } from './errors.js';

const EN = {
  title: 'Ask the textbook',
  ask: 'Ask about this',
  placeholder: 'Ask a question…',
  question: 'Your question',
  send: 'Send',
  stop: 'Stop generating',
  asking: 'Asking about this passage',
  remove: 'Remove passage',
  from: 'Answer from',
  exclusive: 'Only this passage',
  combined: 'This passage and the book',
  empty: 'Ask anything about this book. Tip: select text on a page to ask about it.',
  log: 'Conversation',
  new: 'New chat',
  close: 'Close chat',
  you: 'You: ',
  refused: 'Not covered in the book',
  stopped: 'Stopped.',
  retry: 'Retry',
  nearest: 'Nearest sections',
  sources: 'Sources',
  moreSources: 'More passages',
  copy: 'Copy answer',
  copied: 'Copied',
  copyFailed: 'Copy failed',
  up: 'Helpful',
  down: 'Not helpful',
  quoted: 'Quoted from the book',
  ai: 'AI answer',
  typing: 'Searching the book…',
  selected: 'Your selected passage',
  suggest: 'Questions about this page',
  explain: 'Explain “{0}”',
  wholeBook: 'Search the whole book',
  summarizePage: 'Summarize this page',
  quizPage: 'Quiz me on this page',
  showAnswers: 'Show the answers',
  ...ERROR_MESSAGES,
};

const UR = {
  title: 'کتاب سے پوچھیں',
  ask: 'اس کے بارے میں پوچھیں',
  placeholder: 'سوال پوچھیں…',
  question: 'آپ کا سوال',
  send: 'بھیجیں',
  stop: 'جواب روکیں',
  asking: 'اس اقتباس کے بارے میں سوال',
  remove: 'اقتباس ہٹائیں',
  from: 'جواب کہاں سے',
  exclusive: 'صرف یہ اقتباس',
  combined: 'یہ اقتباس اور کتاب',
  empty: 'اس کتاب کے بارے میں کچھ بھی پوچھیں۔ صفحے پر متن منتخب کر کے بھی پوچھ سکتے ہیں۔',
  log: 'گفتگو',
  new: 'نئی گفتگو',
  close: 'بند کریں',
  you: 'آپ: ',
  refused: 'یہ کتاب میں شامل نہیں',
  stopped: 'روک دیا گیا۔',
  retry: 'دوبارہ کوشش کریں',
  nearest: 'قریب ترین حصے',
  sources: 'حوالے',
  moreSources: 'مزید حصے',
  copy: 'جواب نقل کریں',
  copied: 'نقل ہو گیا',
  copyFailed: 'نقل نہیں ہو سکا',
  up: 'مفید',
  down: 'مفید نہیں',
  quoted: 'کتاب سے اقتباس',
  ai: 'اے آئی کا جواب',
  typing: 'کتاب میں تلاش ہو رہی ہے…',
  selected: 'آپ کا منتخب اقتباس',
  suggest: 'اس صفحے کے بارے میں سوالات',
  explain: '“{0}” کی وضاحت کریں',
  wholeBook: 'پوری کتاب میں تلاش کریں',
  summarizePage: 'اس صفحے کا خلاصہ',
  quizPage: 'اس صفحے پر کوئز',
  showAnswers: 'جوابات دکھائیں',
  NETWORK: 'سرور تک رسائی نہیں ہو سکی۔ اپنا کنکشن دیکھیں۔',
  ORIGIN: 'یہ ویب سائٹ ابھی چیٹ سرور استعمال کرنے کی مجاز نہیں۔',
  STREAM: 'جواب مکمل ہونے سے پہلے کنکشن ٹوٹ گیا۔',
  INDEX_EMPTY: 'کتاب ابھی انڈیکس نہیں ہوئی۔',
  413: 'اقتباس بہت لمبا ہے۔ چھوٹا حصہ منتخب کریں۔',
  429: 'اس وقت بہت زیادہ سوالات ہیں۔ تھوڑا انتظار کریں۔',
  500: 'سرور پر کچھ غلط ہو گیا۔',
  503: 'معاون اس وقت دستیاب نہیں۔',
};

const BUILT_IN = { en: EN, ur: UR };
const RTL = /^(ar|arc|ckb|dv|fa|he|ks|ps|sd|ug|ur|yi)$/;

/** "ur-PK" → "ur". */
export const baseLang = (lang) => String(lang || 'en').toLowerCase().split(/[-_]/)[0];

export const isRtl = (lang) => RTL.test(baseLang(lang));

/**
 * t(key, arg) for `lang`: the site's strings first (exact tag, then base language), then
 * ours, then English.
 */
export function strings(lang, extra) {
  const tag = String(lang || '').toLowerCase();
  const base = baseLang(lang);
  const site = extra && typeof extra === 'object' ? extra : {};
  const table = { ...EN, ...BUILT_IN[base], ...site[base], ...site[tag] };
  return (key, arg) => String(table[key] ?? key).replace('{0}', arg);
}
