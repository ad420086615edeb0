// Voice, where the browser offers it: a microphone button that fills the question with what the
// reader says (speech recognition), and "read aloud" on an answer (speech synthesis). Neither
// is shown where the browser lacks it.
import { iconButton } from './dom.js';
import { MIC, SPEAK } from './icons.js';

/**
 * The microphone button beside the question box, or null where the browser cannot listen.
 * @param {HTMLTextAreaElement} input  filled (after what it holds) as the reader speaks
 */
export function micButton(t, input, lang) {
  const Recognition = window.SpeechRecognition || window.webkitSpeechRecognition;
  if (!Recognition) return null;
  let listening = null;
  const btn = iconButton({ class: 'icon mic', 'aria-pressed': 'false' }, t('speak'), MIC, () => {
    if (listening) return listening.stop();
    const rec = (listening = new Recognition());
    const before = input.value.trim();
    rec.lang = lang;
    rec.interimResults = true;
    rec.onresult = (e) => {
      input.value = [before, ...[...e.results].map((r) => r[0].transcript)].join(' ').trim();
      input.dispatchEvent(new Event('input'));
    };
    rec.onend = () => ((listening = null), btn.setAttribute('aria-pressed', 'false'), input.focus());
    btn.setAttribute('aria-pressed', 'true');
    rec.start();
  });
  return btn;
}

/** "Read aloud" for an answer (again: stop), or null where the browser cannot speak. */
export function readAloud(m, t) {
  const speech = window.speechSynthesis;
  if (!speech || !window.SpeechSynthesisUtterance) return null;
  return iconButton({ class: 'icon speak' }, t('readAloud'), SPEAK, () => {
    if (speech.speaking) return speech.cancel();
    // the answer's words, without markdown marks and [n] markers
    const say = new SpeechSynthesisUtterance(m.text.replace(/\[\d+(,\s*\d+)*\]|[*`#$>_|]/g, ''));
    say.lang = document.documentElement.lang;
    speech.speak(say);
  });
}
