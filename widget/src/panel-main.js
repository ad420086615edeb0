// Entry point of widget-panel.js, which widget.js loads when the reader first opens the chat:
// the panel, the conversation, the answer renderer (markdown and math) and the HTTP client.
// It hands its mount function to the widget.js that requested it.
import { mountPanel } from './chat-panel.js';

const api = window.textbookChat;
if (api && api._define) api._define(mountPanel);
