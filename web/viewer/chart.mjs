// The line chart of the selected counters over the log's samples, in SVG.
// Lines break where a counter has no value or a sample lacks it; a series
// of more points than the chart has pixels is drawn by its minimum and
// maximum per pixel column (the data attributes keep every exact value).
//
// Exact values for tests and copying: svg[data-times] (the samples' local
// times as relog's JSON writes them), svg[data-rows] (their indexes in the
// log), path.series[data-path][data-values] (a JSON array of JavaScript's
// shortest texts, null where there is no value).

import { bandRangeText, bandsBeyond } from "./analysis.mjs";
import { h } from "./dom.mjs";
import { fmt, isoMs, unitOf, utcOffset } from "./format.mjs";
import { valuesJSON } from "./model.mjs";

/** A step of about span/count that reads well: 1, 2, 2.5 or 5 × 10^k. */
export function niceStep(span, count) {
  const raw = span / count;
  const p = Math.pow(10, Math.floor(Math.log10(raw)));
  const m = raw / p;
  return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 2.5 ? 2.5 : m <= 5 ? 5 : 10) * p;
}

/** Time ticks (ms) from t0 to t1 for a width in pixels: about one per 110 px, at round steps. */
export function timeTicks(t0, t1, width) {
  const steps = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400, 172800, 604800].map((s) => s * 1000);
  const want = Math.max(2, Math.floor(width / 110));
  const step = steps.find((s) => (t1 - t0) / s <= want) ?? steps[steps.length - 1];
  const ticks = [];
  for (let t = Math.ceil(t0 / step) * step; t <= t1; t += step) ticks.push(t);
  return { ticks, step };
}

/**
 * The runs of a line to draw, as [x, y] points in pixels: a run ends where
 * the series has no value (NaN) or where joined says that a sample lacking
 * the counter comes before the value. When a run has more points than pixel
 * columns, each column keeps its first, lowest, highest and last point.
 */
export function lineRuns(xs, values, joined, y) {
  const runs = [];
  let run = null, col = NaN, first = -1, lo = -1, hi = -1, last = -1, ylo = 0, yhi = 0;
  const flush = () => {
    if (first < 0) return;
    const ks = [first, lo, hi, last].sort((a, b) => a - b);
    for (let j = 0; j < ks.length; j++) if (j === 0 || ks[j] !== ks[j - 1]) run.push([xs[ks[j]], y(values[ks[j]])]);
    first = -1;
  };
  for (let k = 0; k < values.length; k++) {
    const v = values[k];
    if (Number.isNaN(v)) { flush(); run = null; continue; }
    if (run === null || !joined[k]) { flush(); run = []; runs.push(run); }
    const c = Math.round(xs[k]), yy = y(v);
    if (first >= 0 && c === col) {
      if (yy < ylo) { lo = k; ylo = yy; }
      if (yy > yhi) { hi = k; yhi = yy; }
      last = k;
    } else {
      flush();
      col = c;
      first = lo = hi = last = k;
      ylo = yhi = yy;
    }
  }
  flush();
  return runs;
}

/**
 * Draws the chart of the aligned series (model.alignSeries) into box and
 * returns its hint. labels[i] and colors[i] describe the series i;
 * normalize draws each between its own minimum and maximum. The texts of
 * the data attributes are kept in aligned for the next drawing.
 *
 * The Analysis view's options: span {from, to} fixes the time axis (ms,
 * the series' local time); bands [{condition, lo, hi}] (±Infinity: the
 * chart's top or bottom) are drawn behind the lines, as
 * rect.band[data-condition][data-lo][data-hi]; mark {t0, t1} shades a
 * time range (rect.mark: an alert's slice); label is the chart's
 * accessible name.
 */
export function drawChart(box, { aligned, labels, colors, types, normalize, bias, span, bands = [], mark, label }) {
  const W = Math.max(360, box.clientWidth || 800), H = 300;
  const M = { l: 70, r: 16, t: 12, b: 34 };
  const ih = H - M.t - M.b;
  const times = aligned.times;
  aligned.text ??= {
    times: JSON.stringify(Array.from(times, isoMs)), rows: JSON.stringify(Array.from(aligned.rows)),
    values: aligned.lines.map((l) => valuesJSON(l.values)),
  };
  let hint = aligned.lines.length === 0
    ? "Tick counters in the tree (or click rows of the table) to chart them."
    : normalize ? "Each counter is drawn between its own minimum (0 %) and maximum (100 %)." : `Times are the log's local time (${utcOffset(bias)}).`;
  let t0 = span ? span.from : times[0] ?? 0, t1 = span ? span.to : times[times.length - 1] ?? 1000;
  if (t1 === t0) { t0 -= 1000; t1 += 1000; }
  let lo = Infinity, hi = -Infinity;
  const ranges = aligned.lines.map((l) => {
    let a = Infinity, b = -Infinity;
    for (const v of l.values) { if (v < a) a = v; if (v > b) b = v; } // NaN compares false: no value, no effect
    if (a < lo) lo = a;
    if (b > hi) hi = b;
    return [a, b];
  });
  const spans = ranges.filter(([a, b]) => a <= b).map(([a, b]) => Math.max(Math.abs(a), Math.abs(b))).filter((x) => x > 0);
  if (!normalize && spans.length > 1 && Math.max(...spans) > 50 * Math.min(...spans)) {
    hint = "These counters differ in size by more than 50 times: tick “Scale each counter to its own range” to see the small ones.";
  }
  if (normalize) { lo = 0; hi = 100; }
  if (!(lo <= hi)) { lo = 0; hi = 1; }
  if (lo > 0) lo = 0;
  if (hi === lo) hi = lo + 1;
  // A band's edge a little above the values is shown (up to 3 times the largest value), as the HTML report does.
  const top = hi;
  for (const b of normalize ? [] : bands) {
    for (const e of [b.lo, b.hi]) if (Number.isFinite(e) && e > hi && e <= 3 * Math.max(top, 0)) hi = e * 1.05;
  }
  const step = niceStep(hi - lo, 5);
  lo = Math.floor(lo / step) * step;
  hi = Math.ceil(hi / step) * step;
  // The value labels, and room for the longest (about 7 px a character at 11 px).
  const yLabels = [];
  for (let v = lo; v <= hi + step / 2; v += step) yLabels.push([v, normalize ? `${Math.round(v)} %` : fmt(Number(v.toPrecision(12)))]);
  M.l = Math.max(M.l, 14 + 7 * Math.max(...yLabels.map(([, t]) => t.length)));
  const iw = W - M.l - M.r;
  const x = (t) => M.l + ((t - t0) / (t1 - t0)) * iw;
  const y = (v) => M.t + ih - ((v - lo) / (hi - lo)) * ih;
  const svg = h("svg:svg", {
    width: W, height: H, viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": label ?? "Line chart of the selected counters over time",
    "data-times": aligned.text.times, "data-rows": aligned.text.rows,
  });
  const grid = h("svg:g", { class: "grid" });
  for (const [v, text] of yLabels) {
    const yy = y(v);
    grid.append(h("svg:line", { x1: M.l, x2: M.l + iw, y1: yy, y2: yy }), h("svg:text", { x: M.l - 8, y: yy + 4, class: "ylabel" }, text));
  }
  const { ticks, step: tstep } = timeTicks(t0, t1, iw);
  const multiDay = new Date(t0).getUTCDate() !== new Date(t1).getUTCDate();
  const pad = (n) => String(n).padStart(2, "0");
  for (const t of ticks) {
    const d = new Date(t);
    const label = `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}${tstep < 60000 ? ":" + pad(d.getUTCSeconds()) : ""}`;
    grid.append(h("svg:line", { x1: x(t), x2: x(t), y1: M.t, y2: M.t + ih, class: "vgrid" }),
      h("svg:text", { x: x(t), y: M.t + ih + 16, class: "xlabel" }, label),
      multiDay && (d.getUTCHours() === 0 && d.getUTCMinutes() === 0 || t === ticks[0])
        ? h("svg:text", { x: x(t), y: M.t + ih + 29, class: "xlabel sub" }, `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`) : null);
  }
  grid.append(h("svg:rect", { x: M.l, y: M.t, width: iw, height: ih, class: "frame" }));
  // Bands and the marked time range, behind the grid's lines and the series.
  const back = h("svg:g", { class: "bands" });
  for (const b of normalize ? [] : bands) {
    const bl = Math.max(b.lo, lo), bh = Math.min(b.hi, hi);
    if (!(bh > bl)) continue;
    back.append(h("svg:rect", {
      x: M.l, width: iw, y: y(bh).toFixed(1), height: (y(bl) - y(bh)).toFixed(1), class: `band band-${String(b.condition).toLowerCase()}`,
      "data-condition": b.condition, "data-lo": String(b.lo), "data-hi": String(b.hi),
    }, h("svg:title", {}, `${b.condition}: ${Number.isFinite(b.lo) ? fmt(b.lo) : "−∞"} to ${Number.isFinite(b.hi) ? fmt(b.hi) : "+∞"}`)));
  }
  // Bands beyond the values: a strip at that edge (critical outermost) and, over the lines, a label.
  const beyond = bandsBeyond(normalize ? [] : bands, lo, hi);
  const edgeLabels = [];
  for (const [side, list] of [["above", beyond.above], ["below", beyond.below]]) {
    if (list.length === 0) continue;
    list.forEach((b, i) => back.append(h("svg:rect", {
      x: M.l, width: iw, height: 3, y: side === "above" ? M.t + 3 * (list.length - 1 - i) : M.t + ih - 3 - 3 * (list.length - 1 - i),
      class: `band-edge band-edge-${String(b.condition).toLowerCase()}`, "data-condition": b.condition, "data-edge": side,
      "data-lo": String(b.lo), "data-hi": String(b.hi),
    })));
    const parts = [side === "above" ? "▲ " : "▼ "];
    list.forEach((b, i) => parts.push(i ? " · " : "", h("svg:tspan", { class: `edge-${String(b.condition).toLowerCase()}` }, `${b.condition} ${bandRangeText(b, fmt)}`)));
    parts.push(side === "above" ? " (above the values)" : " (below the values)");
    edgeLabels.push(h("svg:text", { x: M.l + iw - 6, y: side === "above" ? M.t + 17 : M.t + ih - 9, class: "band-edge-label", "data-edge": side }, ...parts));
  }
  if (mark) {
    const a = Math.max(M.l, x(mark.t0)), b = Math.min(M.l + iw, x(mark.t1));
    const w = Math.max(3, b - a);
    back.append(h("svg:rect", { x: (Math.min(a, M.l + iw - w)).toFixed(1), width: w.toFixed(1), y: M.t, height: ih, class: "mark" }));
  }
  svg.append(back, grid);
  const xs = Float64Array.from(times, x);
  const few = times.length <= 80;
  aligned.lines.forEach((l, s) => {
    const [a, b] = ranges[s];
    const yv = normalize ? (v) => y(b > a ? ((v - a) / (b - a)) * 100 : 50) : y;
    const runs = lineRuns(xs, l.values, l.joined, yv);
    const d = runs.map((r) => r.map(([px, py], k) => `${k ? "L" : "M"}${px.toFixed(1)},${py.toFixed(1)}`).join("")).join("");
    const dots = [];
    for (const r of runs) {
      if (few) for (const [px, py] of r) dots.push(h("svg:circle", { cx: px.toFixed(1), cy: py.toFixed(1), r: 2.5, fill: colors[s] }));
      else if (r.length === 1) dots.push(h("svg:circle", { cx: r[0][0].toFixed(1), cy: r[0][1].toFixed(1), r: 2, fill: colors[s] }));
    }
    svg.append(h("svg:path", { class: "series", d, stroke: colors[s], "data-path": l.path, "data-values": aligned.text.values[s] }), ...dots);
  });
  // Hover: a cursor and the values at the nearest sample.
  const cursor = h("svg:line", { class: "cursor", y1: M.t, y2: M.t + ih, visibility: "hidden" });
  const overlay = h("svg:rect", { x: M.l, y: M.t, width: iw, height: ih, class: "overlay" });
  svg.append(...edgeLabels, cursor, overlay);
  const tip = h("div", { class: "tip", hidden: true });
  overlay.addEventListener("mousemove", (e) => {
    if (aligned.lines.length === 0 || times.length === 0) return;
    const r = svg.getBoundingClientRect();
    const t = t0 + ((e.clientX - r.left - M.l) / iw) * (t1 - t0);
    let lo2 = 0, hi2 = times.length - 1; // the nearest sample, by bisection
    while (hi2 - lo2 > 1) { const mid = (lo2 + hi2) >> 1; if (times[mid] <= t) lo2 = mid; else hi2 = mid; }
    const k = Math.abs(times[hi2] - t) < Math.abs(times[lo2] - t) ? hi2 : lo2;
    cursor.setAttribute("x1", xs[k]);
    cursor.setAttribute("x2", xs[k]);
    cursor.setAttribute("visibility", "visible");
    tip.replaceChildren(h("div", { class: "tip-time" }, isoMs(times[k]).replace("T", " ")),
      ...aligned.lines.map((l, s) => {
        const v = l.values[k];
        return h("div", {}, h("span", { class: "swatch", style: `background:${colors[s]}` }),
          h("span", { class: "tip-val" }, Number.isNaN(v) ? (l.present[k] ? "no value" : "absent") : `${fmt(v)}${unitOf(types[s]) === "%" ? " %" : ""}`), " ", labels[s]);
      }));
    tip.hidden = false;
    tip.style.left = `${xs[k] + 12 + 340 > W ? Math.max(0, xs[k] - 352) : xs[k] + 12}px`;
    tip.style.top = `${M.t + 4}px`;
  });
  overlay.addEventListener("mouseleave", () => { cursor.setAttribute("visibility", "hidden"); tip.hidden = true; });
  box.replaceChildren(svg, tip);
  return hint;
}
