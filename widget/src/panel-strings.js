// The panel's words (widget-panel.js) in English: i18n.js's `strings` reads them with the loader's
// own (chat-panel.js). Sites override them by the same keys (TextbookChatStrings). Other built-in
// languages come as parts of their own, loaded with the panel on a page in that language
// (strings-ur.js: widget-ur.js; strings-ja.js: widget-ja.js; …).
import { ERROR_MESSAGES } from './errors.js';

export const PANEL_STRINGS = {
  en: {
    placeholder: 'Ask a question…',
    question: 'Your question',
    send: 'Send',
    stop: 'Stop generating',
    speak: 'Ask by voice',
    readAloud: 'Read aloud',
    answering: 'Answering…',
    asking: 'Asking about this passage',
    remove: 'Remove passage',
    cut: 'A long selection: only its first paragraph is asked about.',
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
    nearest: 'Nearest sections',
    sources: 'Sources',
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
  },
};
