// The values table, virtual: rows of one fixed height, and only those in
// (or near) the scrolled window exist, kept by index while they stay in
// it. A search, new statistics or a change of selection redraw the rows in
// the window, never the whole table, whatever the number of counters.

import { h } from "./dom.mjs";

/** The height of a row, in CSS pixels (viewer.css sets the same). */
export const ROW_HEIGHT = 28;
/** Rows drawn beyond the window on each side. */
const OVERSCAN = 12;

export class VirtualTable {
  /**
   * @param {HTMLElement} wrap the scrolling box
   * @param {HTMLTableElement} table
   * @param {{ columns: {title: string, hint?: string, num?: boolean, width?: string}[], row: (i: number) => HTMLTableRowElement }} opts
   *   width names a width class of viewer.css (w-path, w-unit, …)
   *   row(i) makes the row of item i (with data-index)
   */
  constructor(wrap, table, opts) {
    this.wrap = wrap;
    this.table = table;
    this.opts = opts;
    this.items = []; // the item indexes shown, in order
    this.rows = new Map(); // item index → its tr, for the rows drawn
    this.top = h("tr", { class: "spacer", "aria-hidden": "true" });
    this.bottom = h("tr", { class: "spacer", "aria-hidden": "true" });
    this.empty = h("tr", { class: "empty-row" }, h("td", { colspan: opts.columns.length, class: "empty" }, "No counter matches the search."));
    this.body = h("tbody");
    table.replaceChildren(
      h("thead", {}, h("tr", {}, opts.columns.map((c) => h("th", { class: [c.num ? "num" : "", c.width ? `w-${c.width}` : ""].join(" ").trim(), title: c.hint }, c.title)))),
      this.body);
    this.first = 0;
    this.last = 0;
    this.pending = 0;
    this._onScroll = () => {
      if (this.pending) return;
      this.pending = requestAnimationFrame(() => { this.pending = 0; this.draw(); });
    };
    wrap.addEventListener("scroll", this._onScroll, { passive: true });
  }

  /** Stops listening to the box (the table is replaced). */
  destroy() {
    this.wrap.removeEventListener("scroll", this._onScroll);
    cancelAnimationFrame(this.pending);
  }

  /** Shows these items (indexes, in order), redrawing the window: the rows of items still in it stay. */
  setItems(items) {
    this.items = items;
    this.table.dataset.rows = String(items.length);
    this.draw();
  }

  /** Redraws the rows in the window; changed() first drops those to make again. */
  draw() {
    const n = this.items.length;
    const view = Math.max(this.wrap.clientHeight, ROW_HEIGHT * 10);
    const headH = this.table.tHead?.offsetHeight ?? 0;
    const top = Math.max(0, this.wrap.scrollTop - headH);
    const first = Math.max(0, Math.floor(top / ROW_HEIGHT) - OVERSCAN);
    const last = Math.min(n, Math.ceil((top + view) / ROW_HEIGHT) + OVERSCAN);
    const keep = new Set(this.items.slice(first, last));
    for (const [i, tr] of this.rows) if (!keep.has(i)) { tr.remove(); this.rows.delete(i); }
    const trs = [];
    for (let k = first; k < last; k++) {
      const i = this.items[k];
      let tr = this.rows.get(i);
      if (!tr) { tr = this.opts.row(i); this.rows.set(i, tr); }
      tr.dataset.pos = String(k); // the row's place in the table, for tests and for reading
      trs.push(tr);
    }
    this.top.style.height = `${first * ROW_HEIGHT}px`;
    this.bottom.style.height = `${(n - last) * ROW_HEIGHT}px`;
    // Append in order: rows already in place move only when out of order.
    const want = [this.top, ...trs, this.bottom];
    if (n === 0) want.splice(1, 0, this.empty);
    let at = this.body.firstChild;
    for (const el of want) {
      if (el === at) at = at.nextSibling;
      else this.body.insertBefore(el, at);
    }
    while (at) { const next = at.nextSibling; at.remove(); at = next; }
    this.first = first;
    this.last = last;
  }

  /** Makes the rows of these items again (their data changed), if drawn. */
  changed(indexes) {
    for (const i of indexes) {
      const tr = this.rows.get(i);
      if (!tr) continue;
      const fresh = this.opts.row(i);
      fresh.dataset.pos = tr.dataset.pos;
      tr.replaceWith(fresh);
      this.rows.set(i, fresh);
    }
  }

  /** Makes every drawn row again. */
  changedAll() { this.changed([...this.rows.keys()]); }

  /** Scrolls an item's row into the middle of the box and returns it. */
  reveal(i) {
    const k = this.items.indexOf(i);
    if (k < 0) return null;
    this.wrap.scrollTop = Math.max(0, k * ROW_HEIGHT - this.wrap.clientHeight / 2);
    this.draw();
    return this.rows.get(i) ?? null;
  }
}
