// Stylesheet of the shadow root. `:host { all: initial }` cuts inheritance from the page
// (fonts, colours, line-height...), and shadow styles never reach the page. CSS custom
// properties do still inherit through the host, which is how sites theme the widget:
//   --tc-accent, --tc-on-accent, --tc-bg, --tc-fg, --tc-muted, --tc-border, --tc-soft,
//   --tc-danger, --tc-font, --tc-radius, and the dark variants --tc-bg-dark, --tc-fg-dark,
//   --tc-muted-dark, --tc-border-dark, --tc-soft-dark, --tc-danger-dark.
// The build minifies this string (scripts/build.mjs).
export default `
:host { all: initial !important; }
.tc {
  --accent: var(--tc-accent, var(--ifm-color-primary, #2e8555));
  --bg: var(--tc-bg, #fff);
  --fg: var(--tc-fg, #1c1e21);
  --muted: var(--tc-muted, #5c6370);
  --line: var(--tc-border, #dadde1);
  --soft: var(--tc-soft, #f2f3f5);
  --danger: var(--tc-danger, #b3261e);
  --r: var(--tc-radius, 14px);
  font: 15px/1.5 var(--tc-font, system-ui, -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif);
  color: var(--fg);
  color-scheme: light;
  text-align: left;
  -webkit-text-size-adjust: 100%;
}
.tc[data-theme=dark] {
  --bg: var(--tc-bg-dark, #1e1f22);
  --fg: var(--tc-fg-dark, #e4e6eb);
  --muted: var(--tc-muted-dark, #a2a7b0);
  --line: var(--tc-border-dark, #3b3e44);
  --soft: var(--tc-soft-dark, #2b2d31);
  --danger: var(--tc-danger-dark, #f2a19b);
  color-scheme: dark;
}
*, *::before, *::after { box-sizing: border-box; }
[hidden] { display: none !important; }
.sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
button, textarea, input { font: inherit; color: inherit; letter-spacing: inherit; margin: 0; }
button { cursor: pointer; background: none; border: 0; padding: 0; }
:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }
a { color: var(--accent); }
svg { width: 20px; height: 20px; flex: none; fill: none; stroke: currentColor; stroke-width: 2; stroke-linecap: round; stroke-linejoin: round; }

.bubble, .panel, .ask { position: fixed; z-index: 2147483000; }
.bubble {
  right: 20px; bottom: max(20px, env(safe-area-inset-bottom));
  width: 56px; height: 56px; border-radius: 50%;
  display: grid; place-items: center;
  background: var(--accent); color: var(--on-accent, #fff);
  box-shadow: 0 6px 20px rgba(0, 0, 0, .25);
  transition: transform .15s;
}
.bubble:hover { transform: scale(1.06); }
.bubble svg { width: 26px; height: 26px; }
.panel {
  z-index: 2147483001;
  right: 20px; bottom: calc(max(20px, env(safe-area-inset-bottom)) + 68px);
  width: 400px; max-width: calc(100vw - 40px);
  height: min(640px, calc(100vh - 120px));
  display: flex; flex-direction: column;
  background: var(--bg); border: 1px solid var(--line); border-radius: var(--r);
  box-shadow: 0 12px 40px rgba(0, 0, 0, .22);
  overflow: hidden;
  animation: tc-in .18s ease-out;
}
.tc[data-pos=left] .bubble, .tc[data-pos=left] .panel { right: auto; left: 20px; }
@keyframes tc-in { from { opacity: 0; transform: translateY(8px); } }

header { display: flex; align-items: center; gap: 2px; padding: 8px 8px 8px 16px; border-bottom: 1px solid var(--line); }
h2 { flex: 1; margin: 0; font-size: 16px; font-weight: 600; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.icon { display: grid; place-items: center; width: 34px; height: 34px; border-radius: 8px; color: var(--muted); }
.icon:hover { background: var(--soft); color: var(--fg); }

.log { flex: 1; overflow-y: auto; overscroll-behavior: contain; padding: 16px; display: flex; flex-direction: column; gap: 16px; }
.empty { margin: auto 8px; color: var(--muted); text-align: center; font-size: 14px; }
.empty strong { display: block; color: var(--fg); font-size: 15px; margin-bottom: 4px; }
.msg { overflow-wrap: anywhere; }
.user {
  align-self: flex-end; max-width: 85%; padding: 8px 12px; white-space: pre-wrap;
  background: color-mix(in srgb, var(--accent) 14%, var(--bg));
  border-radius: 14px 14px 4px 14px;
}
.user blockquote, .quote blockquote {
  margin: 0 0 6px; padding-left: 8px; border-left: 3px solid var(--accent);
  color: var(--muted); font-size: 13px;
  display: -webkit-box; -webkit-box-orient: vertical; -webkit-line-clamp: 3; overflow: hidden;
}
.user .mode { display: block; font-size: 12px; color: var(--muted); }
.answer > * { margin: 0 0 .6em; }
.answer > :last-child { margin-bottom: 0; }
.answer ul, .answer ol { padding-left: 1.4em; }
.answer li > ul, .answer li > ol { margin: 0; }
.answer blockquote { padding-left: 10px; border-left: 3px solid var(--line); color: var(--muted); }
code { font: .88em/1.45 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; background: var(--soft); padding: .1em .3em; border-radius: 4px; }
pre { background: var(--soft); padding: 10px 12px; border-radius: 8px; overflow-x: auto; }
pre code { background: none; padding: 0; white-space: pre; }
.cite {
  display: inline-block; min-width: 1.5em; margin: 0 1px; padding: 0 .35em;
  border-radius: 6px; font-size: .75em; font-weight: 600; line-height: 1.6;
  text-align: center; text-decoration: none; vertical-align: .15em;
  background: color-mix(in srgb, var(--accent) 16%, var(--bg));
}
.cite:hover { background: var(--accent); color: var(--on-accent, #fff); }
.typing { color: var(--muted); animation: tc-pulse 1.4s ease-in-out infinite; }
@keyframes tc-pulse { 50% { opacity: .45; } }

.refused { padding: 10px 12px; background: var(--soft); border: 1px dashed var(--line); border-radius: 12px; }
.label { display: flex; align-items: center; gap: 6px; margin-bottom: 4px; font-size: 13px; font-weight: 600; color: var(--muted); }
.label svg { width: 16px; height: 16px; }
.error .answer:empty { display: none; }
.err { margin: 6px 0 0; padding: 8px 10px; border-left: 3px solid var(--danger); color: var(--danger); background: var(--soft); border-radius: 4px; font-size: 14px; }
.note { margin: 6px 0 0; color: var(--muted); font-size: 13px; font-style: italic; }
.btn { margin-top: 8px; padding: 5px 14px; border: 1px solid var(--line); border-radius: 8px; font-size: 14px; }
.btn:hover { background: var(--soft); }

.sources { margin-top: 10px; font-size: 13px; }
.sources h3 { margin: 0 0 4px; font-size: 11px; font-weight: 600; letter-spacing: .05em; text-transform: uppercase; color: var(--muted); }
.sources ol { margin: 0; padding-left: 1.7em; }
.sources li { margin: 2px 0; }
.sources li::marker { color: var(--muted); }
.sources a { text-decoration: none; }
.sources a:hover { text-decoration: underline; }
.actions { display: flex; align-items: center; gap: 2px; margin-top: 6px; font-size: 12px; color: var(--muted); }
.gen { margin-right: auto; }
.actions .icon { width: 30px; height: 30px; }
.actions svg { width: 16px; height: 16px; }
.icon[aria-pressed=true] { color: var(--accent); }
.icon[aria-pressed=true] svg { fill: color-mix(in srgb, var(--accent) 25%, transparent); }
.down svg { transform: rotate(180deg); }

form { padding: 10px 12px 12px; border-top: 1px solid var(--line); }
.quote { margin-bottom: 8px; padding: 8px 10px; background: var(--soft); border-radius: 10px; font-size: 13px; }
.quote-head { display: flex; align-items: center; justify-content: space-between; font-weight: 600; color: var(--muted); }
.quote-head .icon { width: 26px; height: 26px; }
.quote-head svg { width: 14px; height: 14px; }
.quote fieldset { border: 0; margin: 0; padding: 0; display: flex; flex-wrap: wrap; gap: 4px 14px; }
.quote legend { padding: 0; margin-bottom: 2px; color: var(--muted); }
.quote label { display: flex; align-items: center; gap: 5px; cursor: pointer; }
.quote input { accent-color: var(--accent); }
.row { display: flex; align-items: flex-end; gap: 8px; }
textarea {
  flex: 1; min-height: 42px; max-height: 140px; padding: 9px 12px; resize: none;
  border: 1px solid var(--line); border-radius: 10px; background: var(--bg); line-height: 1.4;
}
textarea:focus { outline: none; border-color: var(--accent); box-shadow: 0 0 0 1px var(--accent); }
.send { width: 42px; height: 42px; border-radius: 10px; display: grid; place-items: center; background: var(--accent); color: var(--on-accent, #fff); }
.send:disabled { opacity: .45; cursor: default; }
.stop { background: var(--fg); color: var(--bg); }
.stop svg { fill: currentColor; }

.ask {
  z-index: 2147483002; display: flex; align-items: center; gap: 6px; padding: 6px 10px;
  border-radius: 8px; font-size: 13px; font-weight: 600;
  background: var(--accent); color: var(--on-accent, #fff); box-shadow: 0 4px 14px rgba(0, 0, 0, .25);
}
.ask svg { width: 14px; height: 14px; }

@media (max-width: 480px) {
  .tc[data-pos] .panel { inset: 0; width: auto; max-width: none; height: auto; border: 0; border-radius: 0; }
}
@media (prefers-reduced-motion: reduce) {
  .panel, .typing { animation: none; }
  .bubble { transition: none; }
}
@media print { .tc { display: none; } }
`;
