// Stylesheet of the shadow root. `:host { all: initial }` cuts inheritance from the page
// (fonts, colours, line-height...), and shadow styles never reach the page. CSS custom
// properties do still inherit through the host, which is how sites theme the widget:
//   --tc-accent, --tc-bg, --tc-fg, --tc-muted, --tc-border, --tc-soft, --tc-danger,
//   --tc-font, --tc-radius. Set them on :root, and again under [data-theme=dark] for dark mode
//   (the Docusaurus convention); unset ones fall back to the defaults below.
// The build minifies this string (scripts/build.mjs); custom-property values are written
// without spaces because minifiers keep them verbatim. --on-accent is set by app.js.
export default `
:host { all: initial !important; }
.tc {
  --accent:var(--tc-accent,var(--ifm-color-primary,#2e8555));
  --bg:var(--tc-bg,#fff);
  --fg:var(--tc-fg,#1c1e21);
  --muted:var(--tc-muted,#5c6370);
  --line:var(--tc-border,#dadde1);
  --soft:var(--tc-soft,#f2f3f5);
  --danger:var(--tc-danger,#b3261e);
  font: 15px/1.5 var(--tc-font, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif);
  color: var(--fg);
  color-scheme: light;
}
.tc[data-theme=dark] {
  --bg:var(--tc-bg,#1e1f22);
  --fg:var(--tc-fg,#e4e6eb);
  --muted:var(--tc-muted,#a2a7b0);
  --line:var(--tc-border,#3b3e44);
  --soft:var(--tc-soft,#2b2d31);
  --danger:var(--tc-danger,#f2a19b);
  color-scheme: dark;
}
* { box-sizing: border-box; }
[hidden] { display: none !important; }
.sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); }
button, textarea, input { font: inherit; color: inherit; margin: 0; }
button { cursor: pointer; background: none; border: 0; padding: 0; display: grid; place-items: center; }
:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }
a { color: var(--accent); }
svg { width: 20px; height: 20px; fill: none; stroke: currentColor; stroke-width: 2; stroke-linecap: round; stroke-linejoin: round; }
.bubble svg { width: 26px; height: 26px; }
.label svg, .actions svg, .quote svg { width: 16px; height: 16px; }

.bubble, .panel, .ask { position: fixed; z-index: 2147483000; }
.bubble, .panel { right: 20px; bottom: 20px; box-shadow: 0 8px 28px #0004; }
.bubble { width: 56px; height: 56px; border-radius: 50%; background: var(--accent); color: var(--on-accent); }
.panel {
  bottom: 88px; width: 400px; max-width: calc(100vw - 40px); height: min(640px, calc(100vh - 120px));
  display: flex; flex-direction: column; overflow: hidden;
  background: var(--bg); border: 1px solid var(--line); border-radius: var(--tc-radius, 14px);
}
.tc[data-pos=left] :is(.bubble, .panel) { right: auto; left: 20px; }

header { display: flex; align-items: center; padding: 8px 8px 8px 16px; border-bottom: 1px solid var(--line); }
h2 { flex: 1; margin: 0; font-size: 16px; }
.icon { width: 34px; height: 34px; border-radius: 8px; color: var(--muted); }
.icon:hover { background: var(--soft); color: var(--fg); }
.icon[aria-pressed=true], .icon[aria-label=Copied] { color: var(--accent); }
.icon[aria-pressed=true] svg { fill: currentColor; }
.down svg { transform: rotate(180deg); }

.log { flex: 1; overflow-y: auto; overscroll-behavior: contain; padding: 16px; display: flex; flex-direction: column; gap: 16px; }
.empty { margin: auto 8px; color: var(--muted); text-align: center; font-size: 14px; }
.msg { overflow-wrap: anywhere; }
.user { align-self: flex-end; max-width: 85%; padding: 8px 12px; white-space: pre-wrap; border-radius: 14px 14px 4px; background: color-mix(in srgb, var(--accent) 14%, var(--bg)); }
blockquote { margin: 0 0 6px; padding-left: 8px; border-left: 3px solid var(--line); color: var(--muted); }
.user blockquote, .quote blockquote { border-color: var(--accent); font-size: 13px; max-height: 4.5em; overflow: hidden; }
.note, .gen { font-size: 12px; color: var(--muted); }
.answer > * { margin: 0 0 .6em; }
.answer > :last-child { margin: 0; }
ul, ol { padding-left: 1.5em; }
code { font: .88em ui-monospace, Menlo, Consolas, monospace; background: var(--soft); padding: .1em .3em; border-radius: 4px; }
pre { background: var(--soft); padding: 10px; border-radius: 8px; overflow-x: auto; }
pre code { padding: 0; }
.cite { padding: 0 .2em; font-size: .75em; font-weight: 600; text-decoration: none; vertical-align: super; }
.typing { color: var(--muted); }

.refused { padding: 10px 12px; background: var(--soft); border: 1px dashed var(--line); border-radius: 12px; }
.label { display: flex; gap: 6px; align-items: center; font-size: 13px; font-weight: 600; color: var(--muted); }
.err { margin: 0; padding: 8px 10px; border-left: 3px solid var(--danger); color: var(--danger); background: var(--soft); }
.note { margin: 4px 0 0; }
.btn { margin-top: 8px; padding: 4px 14px; border: 1px solid var(--line); border-radius: 8px; }

.sources { margin-top: 10px; font-size: 13px; }
.sources h3 { margin: 0; font-size: 12px; color: var(--muted); }
.sources ol { margin: 0; }
.sources a:not(:hover) { text-decoration: none; }
.actions { display: flex; align-items: center; margin-top: 4px; }
.gen { margin-right: auto; }
.actions .icon { width: 30px; height: 30px; }

form { padding: 10px 12px 12px; border-top: 1px solid var(--line); }
.quote { margin-bottom: 8px; padding: 6px 10px 8px; background: var(--soft); border-radius: 10px; font-size: 13px; }
.quote-head { display: flex; align-items: center; justify-content: space-between; font-weight: 600; color: var(--muted); }
.quote .icon { width: 26px; height: 26px; }
fieldset { border: 0; margin: 0; padding: 0; display: flex; flex-wrap: wrap; gap: 0 14px; }
label { display: flex; gap: 5px; cursor: pointer; }
input { accent-color: var(--accent); }
.row { display: flex; align-items: flex-end; gap: 8px; }
textarea { flex: 1; min-height: 42px; max-height: 140px; padding: 9px 12px; resize: none; border: 1px solid var(--line); border-radius: 10px; background: var(--bg); line-height: 1.4; }
.send { width: 42px; height: 42px; border-radius: 10px; background: var(--accent); color: var(--on-accent); }
.stop { background: var(--fg); color: var(--bg); }
.stop svg { fill: currentColor; }

.ask { z-index: 2147483001; display: flex; gap: 6px; padding: 6px 10px; border-radius: 8px; font-size: 13px; font-weight: 600; background: var(--accent); color: var(--on-accent); box-shadow: 0 4px 14px #0004; }

@media (max-width: 480px) {
  .tc[data-pos] .panel { inset: 0; width: auto; max-width: none; height: auto; border: 0; border-radius: 0; }
}
`;
