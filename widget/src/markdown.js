// A small, safe markdown subset → a plain-object tree (no DOM, so it is testable in node).
//
// Tree: a node is either a string (text) or `{tag, children, ...}` with tag one of
// p, br, strong, em, code, pre, ul, ol (with optional `start`), li, blockquote,
// a (with `href`, always http/https) and cite (with `n`, a 1-based source number).
// Raw HTML is never interpreted: `<script>` stays the text "<script>".
// dom.js turns the tree into DOM nodes with createElement/textContent only.

/** Absolute http(s) URL or null. Rejects javascript:, data:, relative URLs and the like. */
export function safeUrl(href, base) {
  try {
    const u = new URL(String(href), base);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : null;
  } catch {
    return null;
  }
}

// Inline constructs, in priority order (the first alternative matching at a position wins):
//  1 escape \*   2-3 `code`   4-5 [label](url)   6 [1] / [1, 2] citations
//  7-8 **strong** / __strong__   9 *em*   10 bare http(s) URL   11 line break
// `_em_` is not supported on purpose: it mangles snake_case and __init__ in technical text.
const INLINE = new RegExp(
  [
    /\\([\\`*_{}[\]()#+\-.!|~<>])/,
    /(`+)(?!`)([\s\S]*?[^`])\2(?!`)/,
    /\[([^[\]\n]+)\]\(\s*<?((?:[^\s()<>]|\([^\s()<>]*\))+)>?\s*\)/,
    /\[(\d{1,3}(?:\s*,\s*\d{1,3})*)\]/,
    /(\*\*|__)(?=\S)([\s\S]*?\S)\7/,
    /\*(?=[^\s*])([\s\S]*?[^\s*])\*/,
    /(https?:\/\/[^\s<>"]*[^\s<>".,;:!?'")\]])/,
    /(\n)/,
  ]
    .map((r) => r.source)
    .join('|'),
  'g'
);

function text(out, s) {
  if (!s) return;
  if (typeof out[out.length - 1] === 'string') out[out.length - 1] += s;
  else out.push(s);
}

/** Inline markdown → array of nodes. Inside a link label, links and citations stay text. */
export function inline(src, inLink = false) {
  const out = [];
  let last = 0;
  for (const m of src.matchAll(INLINE)) {
    text(out, src.slice(last, m.index));
    last = m.index + m[0].length;
    if (m[1]) text(out, m[1]);
    else if (m[2]) out.push({ tag: 'code', children: [m[3]] });
    else if (m[4] !== undefined) {
      const href = !inLink && safeUrl(m[5]);
      const kids = inline(m[4], true);
      if (href) out.push({ tag: 'a', href, children: kids });
      else kids.forEach((k) => (typeof k === 'string' ? text(out, k) : out.push(k)));
    } else if (m[6]) {
      if (inLink) text(out, m[0]);
      else for (const n of m[6].split(',')) out.push({ tag: 'cite', n: +n });
    } else if (m[7]) out.push({ tag: 'strong', children: inline(m[8], inLink) });
    else if (m[9]) out.push({ tag: 'em', children: inline(m[9], inLink) });
    else if (m[10]) {
      if (inLink) text(out, m[10]);
      else out.push({ tag: 'a', href: safeUrl(m[10]), children: [m[10]] });
    } else out.push({ tag: 'br' });
  }
  text(out, src.slice(last));
  return out;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const ITEM = /^(\s*)(?:([-*+])|(\d{1,9})[.)])\s+(.*)$/;
const HEADING = /^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/;
const QUOTE = /^ {0,3}>\s?(.*)$/;

/** Markdown → array of block nodes. Robust to half-written input (it is re-run while streaming). */
export function parse(src) {
  const lines = String(src ?? '').split(/\r\n?|\n/);
  const out = [];
  let para = null; // {tag, lines} being collected: a paragraph or a blockquote
  let lists = []; // open lists, outermost first: {indent, node, item}

  const closePara = () => {
    if (para) out.push(para.node(para.lines.join('\n')));
    para = null;
  };
  const closeLists = () => (lists = []);
  const block = (tag) => (s) => ({ tag, children: inline(s) });

  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    let m;
    if ((m = FENCE.exec(line))) {
      closePara();
      closeLists();
      const close = new RegExp(`^ {0,3}${m[1][0] === '`' ? '`' : '~'}{${m[1].length},}\\s*$`);
      const body = [];
      while (++i < lines.length && !close.test(lines[i])) body.push(lines[i]);
      out.push({ tag: 'pre', children: [{ tag: 'code', children: [body.join('\n')] }] });
    } else if (!line.trim()) {
      closePara(); // a blank line ends a paragraph but not a list ("1. a\n\n2. b" is one list)
    } else if ((m = ITEM.exec(line))) {
      closePara();
      const indent = m[1].length;
      const tag = m[2] ? 'ul' : 'ol';
      while (lists.length && lists[lists.length - 1].indent > indent) lists.pop();
      let top = lists[lists.length - 1];
      if (top && top.indent === indent && top.node.tag !== tag) lists.pop(), (top = lists[lists.length - 1]);
      if (!top || top.indent < indent) {
        const node = { tag, children: [] };
        if (tag === 'ol' && m[3] !== '1') node.start = +m[3];
        (top ? top.item.children : out).push(node);
        lists.push((top = { indent, node }));
      }
      top.item = { tag: 'li', children: inline(m[4]), raw: m[4] };
      top.node.children.push(top.item);
    } else if (lists.length && /^\s/.test(line)) {
      // An indented line continues the current list item.
      const top = lists[lists.length - 1];
      top.item.raw += '\n' + line.trim();
      const sub = top.item.children.filter((c) => c.tag === 'ul' || c.tag === 'ol');
      top.item.children = inline(top.item.raw).concat(sub);
    } else if ((m = HEADING.exec(line))) {
      closePara();
      closeLists();
      out.push({ tag: 'p', children: [{ tag: 'strong', children: inline(m[1]) }] });
    } else if ((m = QUOTE.exec(line))) {
      closeLists();
      if (para && para.quote) para.lines.push(m[1]);
      else closePara(), (para = { quote: true, node: block('blockquote'), lines: [m[1]] });
    } else {
      closeLists();
      if (para && !para.quote) para.lines.push(line.trim());
      else closePara(), (para = { node: block('p'), lines: [line.trim()] });
    }
  }
  closePara();
  return strip(out);
}

// Drop the parser's bookkeeping (`raw`) so the tree holds only what the renderer uses.
function strip(nodes) {
  for (const n of nodes) {
    if (typeof n === 'string') continue;
    delete n.raw;
    if (n.children) strip(n.children);
  }
  return nodes;
}
