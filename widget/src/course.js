// The book as a course: suggestions about the page the reader is on, and a quiz's answers
// kept behind a follow-up. The server reads these requests in English whatever the label.

/** Suggested course questions: [label key, the question asked]. */
const ASKS = [
  ['summarizePage', 'Summarize this page'],
  ['quizPage', 'Quiz me on this page'],
];

export const SHOW_ANSWERS = 'Show the answers';

/** @param {(key: string) => string} t  @returns {{label: string, ask: string}[]} */
export const courseQuestions = (t) => ASKS.map(([key, ask]) => ({ label: t(key), ask }));

/** A finished answer that posed a quiz (its answers come on request). */
export const posedQuiz = (res) => !!(res && res.course && res.course.task === 'quiz' && res.status !== 'refused');
