// The counter tree: machine → object → counter → instances, as perfmon's
// "Add Counters" lists them. Nodes are built when first shown (a node's
// children when it is first expanded, CHUNK at a time), and a search
// changes only what it changes: the visibility and count of the nodes
// built, never a rebuild of the list.

import { h } from "./dom.mjs";
import { CounterTree } from "./model.mjs";

/** Children built per click on a node with many of them. */
const CHUNK = 500;
/** A search matching at most this many counters opens every node on the way to them. */
const AUTO_EXPAND = 200;
/** A tree of at most this many counters opens whole. */
const SMALL = 40;

export class TreeView {
  /**
   * @param {HTMLUListElement} root the tree's list
   * @param {{ checkable: boolean, onToggle: (i: number) => void, onPick: (i: number) => void }} opts
   *   checkable: leaves have a checkbox (onToggle) for the chart; otherwise a click picks (onPick)
   */
  constructor(root, opts) {
    this.root = root;
    this.opts = opts;
    this.tree = null;
    this.built = new Map(); // node key → { li, node, shown, count element, children list }
    this.mask = null;
  }

  /** Shows a tree (its top level), everything matched, nothing selected. */
  setTree(tree, selection) {
    this.tree = tree;
    this.selection = selection;
    this.built.clear();
    this.mask = new Uint8Array(tree.size).fill(1);
    this.root.replaceChildren(...tree.roots.map((n) => this._build(n)));
    // A few counters are all shown; one object (or machine) is opened.
    if (tree.size <= SMALL) this._open(tree.roots);
    else if (tree.roots.length === 1) this.expand(tree.roots[0]);
    // The counters already charted (a log's automatic selection) are shown: their objects open.
    for (const i of selection?.items ?? []) this.open(i);
  }

  /** Opens the way to a leaf (without scrolling to it). */
  open(i) {
    const chain = [];
    for (let n = this.tree.leafNodes[i].parent; n; n = n.parent) chain.unshift(n);
    for (const n of chain) {
      this.expand(n);
      const b = this.built.get(n.key);
      while (!this.built.has(n.children.find((c) => c.leaves.includes(i)).key)) this._more(b);
    }
  }

  // _order puts the built objects of each level in the search's order
  // (CounterTree.objectOrder): the same nodes, moved.
  _order(words) {
    const parents = this.tree.roots[0]?.kind === "machine" ? this.tree.roots : [null];
    for (const p of parents) {
      const list = p ? this.built.get(p.key)?.list : this.root;
      if (!list) continue;
      const lis = this.tree.objectOrder(p, words).map((n) => this.built.get(n.key)?.li).filter(Boolean);
      const more = list.querySelector(":scope > li.more");
      let at = list.firstChild;
      for (const li of lis) {
        if (li === at) at = at.nextSibling;
        else list.insertBefore(li, at);
      }
      if (more) list.append(more);
    }
  }

  // _open opens the nodes with shown leaves, down to the leaves.
  _open(nodes) {
    for (const n of nodes) {
      if (n.leaf >= 0 || CounterTree.shown(n, this.mask) === 0) continue;
      this.expand(n);
      const b = this.built.get(n.key);
      while (b.next < n.children.length) this._more(b);
      this._open(n.children);
    }
  }

  // _build makes a node's li (its children come with expand).
  _build(node) {
    const leaf = node.leaf >= 0;
    const li = h("li", { class: `node ${node.kind}${leaf ? " leaf" : ""}`, role: "treeitem", "data-key": node.key, "data-kind": node.kind });
    const count = h("span", { class: "count" });
    let row;
    if (leaf) {
      const i = node.leaf, path = this.tree.paths[i];
      li.dataset.path = path;
      li.dataset.index = String(i);
      li.title = path;
      const label = h("span", { class: "label" }, node.label);
      row = this.opts.checkable
        ? h("label", { class: "row" }, h("input", { type: "checkbox", "aria-label": path, onchange: () => this.opts.onToggle(i) }), h("span", { class: "swatch" }), label)
        : h("div", { class: "row pick", onclick: () => this.opts.onPick(i) }, h("span", { class: "twisty" }), label);
    } else {
      li.setAttribute("aria-expanded", "false");
      row = h("div", { class: "row", onclick: () => this.toggleNode(node) },
        h("span", { class: "twisty", "aria-hidden": "true" }), h("span", { class: "label" }, node.label), count);
      count.textContent = String(node.leaves.length);
    }
    li.append(row);
    const b = { li, node, shown: node.leaves.length, count, list: null, next: 0 };
    this.built.set(node.key, b);
    if (leaf) this._paintLeaf(b);
    return li;
  }

  /** Opens or closes a node. */
  toggleNode(node) {
    const b = this.built.get(node.key);
    if (b.li.getAttribute("aria-expanded") === "true") {
      b.li.setAttribute("aria-expanded", "false");
      b.list.hidden = true;
    } else this.expand(node);
  }

  /** Opens a node, building its children the first time. */
  expand(node) {
    const b = this.built.get(node.key);
    if (!b || node.leaf >= 0) return;
    if (!b.list) {
      b.list = h("ul", { role: "group" });
      b.li.append(b.list);
      this._more(b);
    }
    b.list.hidden = false;
    b.li.setAttribute("aria-expanded", "true");
  }

  // _more builds the next CHUNK children of a node, and a button for the rest.
  _more(b) {
    b.list.querySelector(":scope > li.more")?.remove();
    const kids = b.node.children.slice(b.next, b.next + CHUNK).map((n) => {
      const li = this._build(n);
      this._paint(this.built.get(n.key));
      return li;
    });
    b.next += kids.length;
    b.list.append(...kids);
    const rest = b.node.children.length - b.next;
    if (rest > 0) b.list.append(h("li", { class: "more" }, h("button", { type: "button", class: "link", onclick: () => this._more(b) }, `Show ${Math.min(rest, CHUNK)} more of ${rest}`)));
  }

  /**
   * Shows the leaves of a match (CounterTree.match): hides the nodes
   * without any, updates the counts, and opens the way to the matches when
   * they are few.
   */
  filter(match) {
    this.mask = match.mask;
    this.filtered = match.words.length > 0;
    for (const b of this.built.values()) this._paint(b);
    if (this.filtered && match.count <= AUTO_EXPAND) this._open(this.tree.roots);
    this._order(match.words);
  }

  // _paint updates a built node's visibility and count when they changed.
  _paint(b) {
    const shown = CounterTree.shown(b.node, this.mask);
    if (shown !== b.shown) {
      b.shown = shown;
      b.li.hidden = shown === 0;
    }
    if (b.node.leaf < 0) {
      const text = this.filtered && shown !== b.node.leaves.length ? `${shown} of ${b.node.leaves.length}` : String(b.node.leaves.length);
      if (b.count.textContent !== text) b.count.textContent = text;
    }
  }

  /** Shows the selection on the leaves built (checked, colour). */
  paintSelection() {
    for (const b of this.built.values()) if (b.node.leaf >= 0) this._paintLeaf(b);
  }

  _paintLeaf(b) {
    const i = b.node.leaf, sel = this.selection?.has(i) ?? false;
    b.li.classList.toggle("selected", sel);
    const input = b.li.querySelector("input");
    if (input && input.checked !== sel) input.checked = sel;
    const sw = b.li.querySelector(".swatch");
    if (sw) sw.style.background = this.selection?.colorOf(i) ?? "";
  }

  /** Updates the leaf of one counter after its selection changed. */
  paintLeaf(i) {
    const b = this.built.get(this.tree.leafNodes[i].key);
    if (b) this._paintLeaf(b);
  }

  /** Opens the way to a leaf and scrolls it into view. */
  reveal(i) {
    this.open(i);
    this.built.get(this.tree.leafNodes[i].key)?.li.scrollIntoView({ block: "nearest" });
  }
}
