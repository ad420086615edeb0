// Stylesheet of the shadow root, part 1: what widget.js itself shows (bubble, "Ask about
// this"); panel-styles.js has the rest and comes with the panel.
// `:host { all: initial }` cuts inheritance from the page (fonts, colours, line-height...), and shadow styles never reach the page. CSS custom
// properties do still inherit through the host, which is how sites theme the widget:
//   --tc-accent, --tc-bg, --tc-fg, --tc-muted, --tc-border, --tc-soft, --tc-danger,
//   --tc-font, --tc-radius. Set them on :root, and again under [data-theme=dark] for dark mode
//   (the Docusaurus convention); unset ones fall back to the defaults below.
// The build minifies this string (scripts/build.mjs); custom-property values are written
// without spaces because minifiers keep them verbatim. --on-accent is set by app.js.
// Sides are logical (inset-inline-end...), so right-to-left pages mirror the layout.
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
  background: var(--bg); /* no box of its own: read by app.js for the link colour */
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
a { color: var(--link, var(--accent)); }
svg { width: 20px; height: 20px; fill: none; stroke: currentColor; stroke-width: 2; stroke-linecap: round; stroke-linejoin: round; }
.bubble svg { width: 26px; height: 26px; }
.label svg, .actions svg, .quote svg { width: 16px; height: 16px; }

.bubble, .panel, .ask { position: fixed; z-index: 2147483000; }
.bubble, .panel { inset-inline-end: 20px; bottom: calc(20px + var(--lift, 0px)); box-shadow: 0 8px 28px #0004; }
.bubble { width: 56px; height: 56px; border-radius: 50%; background: var(--accent); color: var(--on-accent); }
.panel {
  bottom: calc(88px + var(--lift, 0px)); width: 400px; max-width: calc(100vw - 40px); height: min(640px, calc(100vh - 120px - var(--lift, 0px)));
  display: flex; flex-direction: column; overflow: hidden;
  background: var(--bg); border: 1px solid var(--line); border-radius: var(--tc-radius, 14px);
}
.tc[data-pos=left] :is(.bubble, .panel) { inset-inline-end: auto; inset-inline-start: 20px; }
.panel.short { height: auto; }
.down { display: flex; align-items: center; gap: 12px; padding: 12px 16px; background: var(--soft); }
.down p { flex: 1; margin: 0; }
.down button { padding: 4px 14px; border: 1px solid var(--line); border-radius: 8px; }

.ask { z-index: 2147483001; display: flex; gap: 6px; padding: 6px 10px; border-radius: 8px; font-size: 13px; font-weight: 600; background: var(--accent); color: var(--on-accent); box-shadow: 0 4px 14px #0004; }
`;
