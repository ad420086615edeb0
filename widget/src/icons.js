// SVG path data for the widget's icons (24×24 viewBox, drawn with a 2px stroke in styles.js).
export const CHAT = 'M4 5h16v11H10l-5 4v-4H4z';
export const CLOSE = 'M6 6l12 12M18 6L6 18';
export const SEND = 'M4 12l16-8-6 16-3-6zM11 14l9-10';
export const STOP = 'M7 7h10v10H7z';
export const NEW = 'M12 5v14M5 12h14';
export const COPY = 'M9 9h11v11H9zM5 15H4V4h11v1';
export const THUMB = 'M7 11v9H4v-9zm0 0l4-8c2 0 3 1 3 3v3h6l-2 11H7';
export const INFO = 'M12 3a9 9 0 1 0 0 18 9 9 0 0 0 0-18zM12 11v5M12 8h.01';
export const MIC = 'M12 3a3 3 0 0 0-3 3v5a3 3 0 0 0 6 0V6a3 3 0 0 0-3-3zM6 11a6 6 0 0 0 12 0M12 17v4';
export const SPEAK = 'M4 9h4l5-4v14l-5-4H4zM17 9a4 4 0 0 1 0 6';
