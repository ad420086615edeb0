// Incremental parser for `text/event-stream` bodies (WHATWG HTML, "server-sent events").
//
// Feed it the Uint8Array chunks a `response.body.getReader()` yields. Chunks may split the
// stream anywhere: inside a field, between CR and LF, or inside a multi-byte UTF-8 character.
// One streaming TextDecoder keeps partial characters (and drops a leading BOM); a line buffer
// keeps partial lines. `onEvent({event, data})` runs once per complete event. The `id` and
// `retry` fields are ignored: a chat answer is never resumed by reconnecting.

export function createSSEParser(onEvent) {
  const decoder = new TextDecoder();
  let buf = ''; // text after the last line ending
  let skipLF = false; // the previous chunk ended with CR: a leading LF belongs to it
  let data = '';
  let type = '';

  function line(l) {
    if (!l) {
      // A blank line dispatches; an event without any data field is dropped (per spec).
      if (data) onEvent({ event: type || 'message', data: data.slice(0, -1) });
      data = type = '';
      return;
    }
    if (l[0] === ':') return; // comment, e.g. a keep-alive
    const c = l.indexOf(':');
    const field = c < 0 ? l : l.slice(0, c);
    let value = c < 0 ? '' : l.slice(c + 1);
    if (value[0] === ' ') value = value.slice(1);
    if (field === 'data') data += value + '\n';
    else if (field === 'event') type = value;
  }

  function push(text) {
    let i = 0;
    if (skipLF && text) {
      if (text[0] === '\n') i = 1;
      skipLF = false;
    }
    const s = buf + text.slice(i);
    let start = 0;
    for (let j = buf.length; j < s.length; j++) {
      const ch = s[j];
      if (ch !== '\n' && ch !== '\r') continue;
      line(s.slice(start, j));
      if (ch === '\r') {
        if (j + 1 === s.length) skipLF = true;
        else if (s[j + 1] === '\n') j++;
      }
      start = j + 1;
    }
    buf = s.slice(start);
  }

  return {
    /** @param {Uint8Array} chunk */
    feed(chunk) {
      push(decoder.decode(chunk, { stream: true }));
    },
    /** End of stream: flush the decoder. An unterminated last event is discarded (per spec). */
    end() {
      push(decoder.decode());
      buf = data = type = '';
    },
  };
}
