// Stylesheet of the chat panel, adopted by the shadow root when widget-panel.js loads
// (see styles.js for the variables and the base rules).
export default `
header { display: flex; align-items: center; padding-block: 8px; padding-inline: 16px 8px; border-bottom: 1px solid var(--line); }
h2 { flex: 1; margin: 0; font-size: 16px; }
.icon { width: 34px; height: 34px; border-radius: 8px; color: var(--muted); }
.icon:hover { background: var(--soft); color: var(--fg); }
.icon[aria-pressed=true], .icon.ok { color: var(--accent); }
.icon[aria-pressed=true] svg { fill: currentColor; }
.down svg { transform: rotate(180deg); }

.log { flex: 1; overflow-y: auto; overscroll-behavior: contain; padding: 16px; display: flex; flex-direction: column; gap: 16px; }
.empty { margin: auto 8px; color: var(--muted); text-align: center; font-size: 14px; }
.msg { overflow-wrap: anywhere; }
.user { align-self: flex-end; max-width: 85%; padding: 8px 12px; white-space: pre-wrap; border-radius: 14px; border-end-end-radius: 4px; background: color-mix(in srgb, var(--accent) 14%, var(--bg)); }
blockquote { margin: 0 0 6px; padding-inline-start: 8px; border-inline-start: 3px solid var(--line); color: var(--muted); }
.user blockquote, .quote blockquote { border-color: var(--accent); font-size: 13px; max-height: 4.5em; overflow: hidden; }
.note, .gen { font-size: 12px; color: var(--muted); }
.answer > * { margin: 0 0 .6em; }
.answer > :last-child { margin: 0; }
ul, ol { padding-inline-start: 1.5em; }
code { font: .88em ui-monospace, Menlo, Consolas, monospace; background: var(--soft); padding: .1em .3em; border-radius: 4px; }
pre { background: var(--soft); padding: 10px; border-radius: 8px; overflow-x: auto; }
pre code { padding: 0; }
table { display: block; overflow-x: auto; border-collapse: collapse; font-size: 13px; }
th, td { border: 1px solid var(--line); padding: 2px 6px; overflow-wrap: normal; }
.cite { padding: 0 .2em; font-size: .75em; font-weight: 600; text-decoration: none; vertical-align: super; }
.typing { color: var(--muted); display: flex; align-items: center; gap: 4px; }
.typing i { width: 6px; height: 6px; border-radius: 50%; background: currentColor; animation: tc-dot 1.2s infinite both; }
.typing i:nth-child(2) { animation-delay: .2s; }
.typing i:nth-child(3) { animation-delay: .4s; margin-inline-end: 4px; }
@keyframes tc-dot { 0%, 80%, 100% { opacity: .25; } 40% { opacity: 1; } }
@media (prefers-reduced-motion: reduce) { .typing i { animation: none; } }
math { font-size: 1.05em; }
math[display=block] { margin: .4em 0; overflow-x: auto; }
.mode { display: block; margin-bottom: 4px; font-size: 12px; color: var(--muted); }
.suggest { display: flex; flex-wrap: wrap; gap: 6px; padding: 8px 12px 0; border-top: 1px solid var(--line); }
.chip { display: block; padding: 4px 10px; border: 1px solid var(--line); border-radius: 999px; font-size: 13px; text-align: start; }
.chip:hover { background: var(--soft); }

.refused { padding: 10px 12px; background: var(--soft); border: 1px dashed var(--line); border-radius: 12px; }
.label { display: flex; gap: 6px; align-items: center; font-size: 13px; font-weight: 600; color: var(--muted); }
.err { margin: 0; padding: 8px 10px; border-inline-start: 3px solid var(--danger); color: var(--danger); background: var(--soft); }
.note { margin: 4px 0 0; }
.btn { margin-top: 8px; padding: 4px 14px; border: 1px solid var(--line); border-radius: 8px; }

.sources { margin-top: 10px; font-size: 13px; }
.sources h3 { margin: 0; font-size: 12px; color: var(--muted); }
.sources :is(ol, summary) { margin: 0; line-height: 24px; }
.sources a { display: inline-block; } /* 24 px high, as targets should be (WCAG 2.5.8) */
.sources a:not(:hover) { text-decoration: none; }
.actions { display: flex; align-items: center; margin-top: 4px; }
.gen { margin-inline-end: auto; }
.actions .icon { width: 30px; height: 30px; }

form { padding: 10px 12px 12px; border-top: 1px solid var(--line); }
.suggest:not([hidden]) + form { border-top: 0; }
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

@media (max-width: 480px) {
  .tc[data-pos] .panel { inset: 0; width: auto; max-width: none; height: auto; border: 0; border-radius: 0; }
}
`;
