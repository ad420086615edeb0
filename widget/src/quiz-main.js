// Entry point of widget-quiz.js, the quiz cards, which the panel loads the first time a quiz shows
// (practice.js). It hands them to the widget.js that asked.
import { quizCards } from './quiz-cards.js';

const api = (window.textbookChat ||= {});
api._quiz = { quizCards };
