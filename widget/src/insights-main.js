// Entry point of widget-insights.js, the author's view, which widget.js loads only on a page
// opened with ?textbook-chat=insights. It hands its mount function to the widget.js that asked.
import { mountInsights } from './insights.js';

const api = window.textbookChat;
if (api && api._author) api._author(mountInsights);
