// Entry point of widget-ur.js: the panel's words in Urdu, handed to the widget.js that asked
// (app.js loads it with the panel on an Urdu page).
import { UR } from './strings-ur.js';

const api = window.textbookChat;
if (api && api._lang) api._lang('ur', UR);
