// Other fixed things on the page: a site's own chat bubble in the widget's corner, a sticky
// navbar over the author's panel. Found by hit-testing a grid of points over a region of the
// viewport and keeping the fixed or sticky elements there (not the widget, not full-page layers).

/**
 * The boxes of the page's fixed and sticky elements over the viewport region [x0, x1] × [y0, y1].
 * @param {Element} host  the widget's host (never counted)
 */
export function occupied(host, x0, y0, x1, y1, step = 24) {
  const seen = new Set();
  const boxes = [];
  for (let x = x0; x <= x1; x += step)
    for (let y = y0; y <= y1; y += step) {
      const top = document.elementsFromPoint(x, y).find((e) => e !== host);
      for (let e = top; e && e !== document.body && e !== document.documentElement && !seen.has(e); e = e.parentElement) {
        seen.add(e);
        if (!/fixed|sticky/.test(getComputedStyle(e).position)) continue;
        const r = e.getBoundingClientRect();
        // a layer over most of the page (a backdrop, a full-height sidebar) is no neighbour
        if (r.width && r.height && r.height < innerHeight / 2) boxes.push(r);
        break;
      }
    }
  return boxes;
}

/**
 * How far the bubble moves up so that it sits above whatever occupies its corner (a site's own
 * chat bubble, a cookie bar): 0 when the corner is free.
 * @param {boolean} left  the bubble is in the bottom-left corner
 */
export function lift(host, left) {
  const W = innerWidth;
  const H = innerHeight;
  const boxes = occupied(host, left ? 8 : W - 124, H - 96, left ? 124 : W - 8, H - 8);
  return Math.max(0, ...boxes.map((r) => H - r.top + 12 - 20)); // 12 px above it; the bubble is 20 px from the bottom
}
