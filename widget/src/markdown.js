// A small, safe markdown subset → a plain-object tree (no DOM, so it is testable in node).
//
// Tree: a node is either a string (text) or `{tag, children, ...}` with tag one of
// p, br, strong, em, code, pre, ul, ol (with optional `start`), li, table, tr, th, td,
// a (with `href`, always http/https), cite (with `n`, a 1-based source number) and
// math (with `tex`, and `display` for `$$…$$`; math.js renders it as MathML).
// Headings become bold paragraphs.
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
//  group 1: escape \*                  2-3: `code`          4-5: [label](http-url)
//  6: [1] / [1, 2] citations           7-8: **strong**
//  9: *em*                             10: bare http(s) URL   11: line break
//  12: $$display math$$                13: $inline math$ (no space inside the dollars and no
//      digit after, so "$5 and $10" stays text)
// `_em_` and `__strong__` are not supported on purpose: they mangle snake_case and __init__.
// Spans are bounded (400 characters) so that a run of unmatched `*` or backticks stays linear.
const INLINE =
  /\\([\\`*_{}[\]()#+\-.!|~<>$])|(`{1,8})(?!`)([\s\S]{0,400}?[^`])\2(?!`)|\[([^[\]\n]{1,300})\]\(\s*<?((?:[^\s()<>]|\([^\s()<>]*\)){1,2000})>?\s*\)|\[(\d{1,3}(?:\s*,\s*\d{1,3})*)\]|(\*\*)(?=\S)([\s\S]{0,400}?\S)\7|\*(?=[^\s*])([\s\S]{0,400}?[^\s*])\*|(https?:\/\/[^\s<>"]*[^\s<>".,;:!?'")\]])|(\n)|\$\$([^$]{1,2000}?)\$\$|\$(?=[^\s$])([^$\n]{0,400}?[^\s$\\])\$(?!\d)/g;

function text(out, s) {
  if (!s) return;
  if (typeof out[out.length - 1] === 'string') out[out.length - 1] += s;
  else out.push(s);
}

/** Inline markdown → array of nodes. */
export function inline(src) {
  const out = [];
  let last = 0;
  for (const m of src.matchAll(INLINE)) {
    text(out, src.slice(last, m.index));
    last = m.index + m[0].length;
    if (m[1]) text(out, m[1]);
    else if (m[2]) out.push({ tag: 'code', children: [m[3]] });
    else if (m[4]) {
      // The label is kept as plain text; a link with a rejected URL becomes just its label.
      const href = safeUrl(m[5]);
      if (href) out.push({ tag: 'a', href, children: [m[4]] });
      else out.push(...inline(m[4])); // a book's own link ("[“Shared Access to `Mutex<T>`”](ch16-03.html)"): its label read
    } else if (m[6]) for (const n of m[6].split(',')) out.push({ tag: 'cite', n: +n });
    else if (m[7]) out.push({ tag: 'strong', children: inline(m[8]) });
    else if (m[9]) out.push({ tag: 'em', children: inline(m[9]) });
    else if (m[10]) out.push({ tag: 'a', href: safeUrl(m[10]), children: [m[10]] });
    else if (m[11]) out.push({ tag: 'br' });
    else out.push({ tag: 'math', tex: m[12] || m[13], display: !!m[12] });
  }
  text(out, src.slice(last));
  return out;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const ITEM = /^\s*(?:([-*+])|(\d{1,9})[.)])\s+(.*)$/;
const HEADING = /^ {0,3}#{1,6}\s+(.*?)[\s#]*$/;
const MATH = /^ {0,3}\$\$/;
const ROW = /^\s*\|/;
const DELIMITER = /^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/;
/** A table row's cells ("| a | b |" → ["a", "b"]; "\|" stays in its cell). */
const cells = (row) => row.trim().replace(/^\||(?<!\\)\|$/g, '').split(/(?<!\\)\|/).map((c) => c.trim());

/**
 * Markdown → array of block nodes. Robust to half-written input (it is re-run while
 * streaming). A list item indented more than the one before it starts a list inside it (a
 * book's contents: parts, their pages, their sections).
 */
export function parse(src) {
  const out = [];
  const lines = String(src ?? '').split(/\r\n?|\n/);
  let para = null; // lines of the paragraph being collected
  let list = null; // the open list node (the innermost)
  let item = ''; // source of its last item
  let lists = []; // the open lists, outermost first: {indent, node}
  let lazy = false; // the line before was an item's: a line right after it, unindented, goes on with it
  const close = () => {
    if (para) out.push({ tag: 'p', children: inline(para.join('\n')) });
    para = null;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    let m;
    if ((m = FENCE.exec(line))) {
      close();
      list = null;
      const end = new RegExp(`^ {0,3}${m[1][0] === '`' ? '`' : '~'}{${m[1].length},}\\s*$`);
      const body = [];
      while (++i < lines.length && !end.test(lines[i])) body.push(lines[i]);
      out.push({ tag: 'pre', children: [{ tag: 'code', children: [body.join('\n')] }] });
    } else if (MATH.test(line)) {
      // $$ … $$ on one line or several: a display formula
      close();
      list = null;
      let tex = line.trim().slice(2);
      while (!/\$\$$/.test(tex.trim()) && ++i < lines.length) tex += '\n' + lines[i];
      out.push({ tag: 'math', tex: tex.trim().replace(/\$\$$/, '').trim(), display: true });
    } else if (ROW.test(line) && DELIMITER.test(lines[i + 1] || '')) {
      // a table: its header row, the delimiter row (skipped), then every row that follows
      close();
      list = null;
      const rows = [line];
      for (i++; ROW.test(lines[i + 1] || ''); ) rows.push(lines[++i]);
      out.push({ tag: 'table', children: rows.map((row, k) => ({ tag: 'tr', children: cells(row).map((c) => ({ tag: k ? 'td' : 'th', children: inline(c) })) })) });
    } else if (!line.trim()) {
      close(); // a blank line ends a paragraph but not a list ("1. a\n\n2. b" is one list)
      lazy = false;
    } else if ((m = ITEM.exec(line))) {
      close();
      const tag = m[1] ? 'ul' : 'ol';
      const indent = line.length - line.trimStart().length;
      if (!list) lists = [];
      while (lists.length > 1 && lists[lists.length - 1].indent > indent) lists.pop();
      const top = lists[lists.length - 1];
      const parent = top && indent > top.indent ? top.node.children[top.node.children.length - 1] : null;
      if (parent || !top || top.node.tag !== tag) {
        const node = { tag, children: [] };
        if (m[2] && m[2] !== '1') node.start = +m[2];
        if (parent) (parent.nested = node), lists.push({ indent, node });
        else out.push(node), (lists = [{ indent, node }]);
      }
      list = lists[lists.length - 1].node;
      list.children.push({ tag: 'li', children: inline((item = m[3])) });
      lazy = true;
    } else if (list && (/^\s/.test(line) || (lazy && !HEADING.test(line)))) {
      // An indented line continues the last item; so does one right after it, as CommonMark reads a
      // "lazy" line ("- [-O] -\nCompile with optimizations").
      const last = list.children[list.children.length - 1];
      last.children = inline((item += '\n' + line.trim()));
    } else {
      list = null;
      if ((m = HEADING.exec(line))) close(), out.push({ tag: 'p', children: [{ tag: 'strong', children: inline(m[1]) }] });
      else (para ||= []).push(line.replace(/^ {0,3}> ?/, '').trim()); // quote markers are dropped
    }
  }
  close();
  return out;
}
