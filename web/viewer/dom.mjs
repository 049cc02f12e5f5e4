// Small DOM helpers of the viewer's views.

/** document.getElementById. */
export const $ = (id) => document.getElementById(id);

/**
 * Creates an element: h("td", { class: "num", title }, child, …); "svg:…"
 * tags are SVG. Attributes null, undefined or false are left out, true is
 * an empty attribute, on… are event listeners.
 */
export function h(tag, attrs = {}, ...children) {
  const svg = tag.startsWith("svg:");
  const el = document.createElementNS(svg ? "http://www.w3.org/2000/svg" : "http://www.w3.org/1999/xhtml", svg ? tag.slice(4) : tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) el.append(c instanceof Node ? c : String(c));
  return el;
}

/** A path as text nodes with a line-break opportunity after each backslash. */
export function breakable(text) {
  const out = [];
  text.split("\\").forEach((part, k) => { if (k > 0) out.push("\\", h("wbr")); out.push(part); });
  return out;
}
