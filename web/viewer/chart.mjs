// The line chart of the selected counters over the log's samples, in SVG.
// Lines break where a counter has no value or a sample lacks it; a series
// of more samples than the chart's pixel columns is drawn as a light
// min/max envelope per pixel column under a line of the columns' means
// (the data attributes keep every exact value). A drag over the chart
// zooms to a time range (drawChart's onZoom), and so do keys while the
// chart has focus (zoomKey: + and − zoom in and out, ← and → move, 0 or
// Escape show the whole log).
//
// Exact values for tests and copying: svg[data-times] (the samples' local
// times as relog's JSON writes them), svg[data-rows] (their indexes in the
// log), path.series[data-path][data-values] (a JSON array of JavaScript's
// shortest texts, null where there is no value), all of them whatever the
// time range shown; svg[data-first][data-last] (the first and the last
// sample in the time range shown), svg[data-mode] ("envelope" or "lines"),
// svg[data-unit] (the Y axis' title); path.envelope[data-path]; while
// hovering, .tip[data-from][data-to] (the samples' times) and, for each
// series, div[data-path][data-min][data-mean][data-max] of a pixel column.

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

/** An average Gregorian month in ms: the calendar steps' size when a step is chosen. */
const MONTH_MS = 2629746000;
/** The calendar steps beyond a week, in months: 1, 2, 3, 6 months, then 1, 2, 5 × 10^k years (a log can span 29,000 years). */
const MONTH_STEPS = [1, 2, 3, 6, 12, 24, 60, 120, 240, 600, 1200, 2400, 6000, 12000, 24000, 60000, 120000];

/**
 * Time ticks (ms) from t0 to t1 for a width in pixels: about one per 110 px, at round steps: seconds to a week, then
 * calendar months and years (months is then the step in months, each tick the first of a month). Their number stays
 * bounded whatever the range.
 */
export function timeTicks(t0, t1, width) {
  const steps = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400, 172800, 604800].map((s) => s * 1000);
  const want = Math.max(2, Math.floor(width / 110));
  const ticks = [];
  const step = steps.find((s) => (t1 - t0) / s <= want);
  if (step !== undefined) {
    for (let t = Math.ceil(t0 / step) * step; t <= t1; t += step) ticks.push(t);
    return { ticks, step };
  }
  const months = MONTH_STEPS.find((m) => (t1 - t0) / (m * MONTH_MS) <= want) ?? MONTH_STEPS[MONTH_STEPS.length - 1];
  const first = new Date(t0);
  let n = first.getUTCFullYear() * 12 + first.getUTCMonth();
  n -= ((n % months) + months) % months;
  for (const d = new Date(0); ticks.length <= want + 2; n += months) {
    d.setUTCFullYear(Math.floor(n / 12), n - 12 * Math.floor(n / 12), 1); // not Date.UTC, which reads years 0-99 as 19xx
    const t = d.getTime();
    if (t < t0) continue;
    if (!(t <= t1)) break; // NaN beyond Date's range too
    ticks.push(t);
  }
  return { ticks, step: months * MONTH_MS, months };
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
 * The min/max envelope of a series per pixel column, with the mean: for
 * the samples from k0 to k1 (excluded), runs (broken as lineRuns breaks
 * them: no value, or a sample lacking the counter) of columns
 * { c, lo, hi, mean, n, k0, k1 }, c the column (xs rounded), lo, hi and
 * mean the values' (not pixels), n their number, k0..k1 their samples.
 */
export function columnEnvelope(xs, values, joined, k0 = 0, k1 = values.length) {
  const runs = [];
  let run = null, cell = null;
  for (let k = k0; k < k1; k++) {
    const v = values[k];
    if (Number.isNaN(v)) { run = null; cell = null; continue; }
    if (run === null || !joined[k]) { run = []; runs.push(run); cell = null; }
    const c = Math.round(xs[k]);
    if (cell && cell.c === c) {
      if (v < cell.lo) cell.lo = v;
      if (v > cell.hi) cell.hi = v;
      cell.sum += v;
      cell.n++;
      cell.k1 = k + 1;
    } else {
      cell = { c, lo: v, hi: v, sum: v, n: 1, k0: k, k1: k + 1 };
      run.push(cell);
    }
  }
  for (const r of runs) for (const cl of r) { cl.mean = cl.sum / cl.n; delete cl.sum; }
  return runs;
}

/**
 * The minimum, mean and maximum of a series' values from k0 to k1
 * (excluded), leaving out samples without a value, and their number;
 * null when none has a value.
 */
export function rangeStats(values, k0, k1) {
  let lo = Infinity, hi = -Infinity, sum = 0, n = 0;
  for (let k = k0; k < k1; k++) {
    const v = values[k];
    if (Number.isNaN(v)) continue;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
    sum += v;
    n++;
  }
  return n === 0 ? null : { min: lo, mean: sum / n, max: hi, n };
}

/** The first index of a sorted array whose value is at least t (its length when none). */
export function lowerBound(sorted, t) {
  let lo = 0, hi = sorted.length;
  while (lo < hi) { const mid = (lo + hi) >> 1; if (sorted[mid] < t) lo = mid + 1; else hi = mid; }
  return lo;
}

/** The first index of a sorted array whose value is more than t (its length when none). */
export function upperBound(sorted, t) {
  let lo = 0, hi = sorted.length;
  while (lo < hi) { const mid = (lo + hi) >> 1; if (sorted[mid] <= t) lo = mid + 1; else hi = mid; }
  return lo;
}

/** The order in which to draw series: a _Total instance last, so that it is on top. */
export function drawOrder(paths) {
  const total = (p) => /\(_Total\)\\[^\\]*$|\/_Total\)/i.test(p);
  return paths.map((p, s) => s).sort((a, b) => total(paths[a]) - total(paths[b]) || a - b);
}

/**
 * The time range a key asks for, for a chart showing from t0 to t1 (ms)
 * of a log from first to last: "+" (or "=") the middle half, "-" twice the
 * span around the same middle, "ArrowLeft" and "ArrowRight" the span moved
 * by a quarter of it (kept within the log), "0", "Escape" and "Home" the
 * whole log. Returns {from, to} (whole ms), null for the whole log, or
 * undefined when the key asks for nothing (another key, or no change).
 */
export function zoomKey(key, t0, t1, first, last) {
  const span = t1 - t0, whole = t0 <= first && t1 >= last;
  const within = (from, to) => {
    // Moved back inside the log, the span kept where the log allows it.
    if (from < first) { to += first - from; from = first; }
    if (to > last) { from -= to - last; to = last; }
    from = Math.max(first, Math.ceil(from));
    to = Math.min(last, Math.floor(to));
    return from <= first && to >= last ? null : { from, to };
  };
  switch (key) {
    case "+": case "=": {
      const mid = (t0 + t1) / 2;
      return span / 2 < 1 ? undefined : within(mid - span / 4, mid + span / 4);
    }
    case "-": case "_": {
      const mid = (t0 + t1) / 2;
      return whole ? undefined : within(mid - span, mid + span);
    }
    case "ArrowLeft": case "ArrowRight": {
      if (whole) return undefined;
      const d = (key === "ArrowLeft" ? -span : span) / 4;
      const r = within(t0 + d, t1 + d);
      return r && r.from === t0 && r.to === t1 ? undefined : r;
    }
    case "0": case "Escape": case "Home":
      return whole ? undefined : null;
    default:
      return undefined;
  }
}

/** The Y axis' title: the units of the series (one, or each once), or the scaled mode's. */
export function axisTitle(units, normalize) {
  if (normalize) return "scaled: each counter’s min to max";
  const list = [...new Set(units.filter(Boolean))];
  return list.length === 0 ? "" : list.join(" · ");
}

/**
 * Draws the chart of the aligned series (model.alignSeries) into box and
 * returns its hint. labels[i] and colors[i] describe the series i;
 * normalize draws each between its own minimum and maximum. The texts of
 * the data attributes are kept in aligned for the next drawing.
 *
 * A series of more samples than the chart has pixel columns is drawn as a
 * light min/max envelope per column under a line of the columns' means
 * (path.envelope and path.series); hovering shows the column's minimum,
 * mean and maximum and its time range. A _Total instance is drawn last
 * (on top). units[i] (format.unitFor) titles the Y axis; without them the
 * types' display suffixes do.
 *
 * Options: span {from, to} fixes the time axis (ms, the series' local
 * time): the samples outside it are not drawn (the data attributes keep
 * them all); onZoom({from, to}) makes the chart zoomable: a drag over a
 * time range calls it with that range (whole ms), and so do the keys of
 * zoomKey while the chart (svg, focusable) has focus, or with null for
 * the whole log. The Analysis view's:
 * bands [{condition, lo, hi}] (±Infinity: the chart's top or bottom) are
 * drawn behind the lines, as rect.band[data-condition][data-lo][data-hi];
 * mark {t0, t1} shades a time range (rect.mark: an alert's slice); label
 * is the chart's accessible name.
 */
export function drawChart(box, { aligned, labels, colors, types, units, normalize, bias, span, bands = [], mark, label, onZoom }) {
  const W = Math.max(360, box.clientWidth || 800), H = 300;
  const M = { l: 70, r: 16, t: 12, b: 34 };
  const ih = H - M.t - M.b;
  const times = aligned.times;
  units ??= types.map((t) => ({ "%": "%", "/sec": "/sec", s: "seconds" })[unitOf(t)] ?? "");
  aligned.text ??= {
    times: JSON.stringify(Array.from(times, isoMs)), rows: JSON.stringify(Array.from(aligned.rows)),
    values: aligned.lines.map((l) => valuesJSON(l.values)),
  };
  let hint = aligned.lines.length === 0
    ? "Tick counters in the tree (or click rows of the table) to chart them."
    : normalize ? "Each counter is drawn between its own minimum (bottom) and maximum (top): the axis shows no values." : `Times are the log's local time (${utcOffset(bias)}).`;
  let t0 = span ? span.from : times[0] ?? 0, t1 = span ? span.to : times[times.length - 1] ?? 1000;
  if (t1 === t0) { t0 -= 1000; t1 += 1000; }
  // The samples in the time axis' range: k0 to k1 (excluded).
  // (t1 + 1e-9 would be t1 itself at a FILETIME's millisecond: the last sample left out)
  const k0 = lowerBound(times, t0), k1 = upperBound(times, t1);
  let lo = Infinity, hi = -Infinity;
  const ranges = aligned.lines.map((l) => {
    let a = Infinity, b = -Infinity;
    for (let k = k0; k < k1; k++) { const v = l.values[k]; if (v < a) a = v; if (v > b) b = v; } // NaN compares false: no value, no effect
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
  // The value labels (scaled: the bottom is each counter's minimum, the top its maximum), and room for the longest (about 7 px a character at 11 px).
  const yLabels = [];
  for (let v = lo; v <= hi + step / 2; v += step) yLabels.push([v, normalize ? (v <= lo ? "min" : v >= hi - step / 2 ? "max" : "") : fmt(Number(v.toPrecision(12)))]);
  const title = axisTitle(units, normalize);
  M.l = Math.max(M.l, 14 + 7 * Math.max(...yLabels.map(([, t]) => t.length))) + (title ? 16 : 0);
  const iw = W - M.l - M.r;
  const x = (t) => M.l + ((t - t0) / (t1 - t0)) * iw;
  const y = (v) => M.t + ih - ((v - lo) / (hi - lo)) * ih;
  const zoomable = onZoom && times.length > 1;
  const svg = h("svg:svg", {
    width: W, height: H, viewBox: `0 0 ${W} ${H}`, role: "img",
    "aria-label": (label ?? "Line chart of the selected counters over time") +
      (zoomable ? ". Keys: plus and minus zoom in and out, left and right arrows move the time range, 0 or Escape shows the whole log." : ""),
    tabindex: zoomable ? 0 : null,
    "data-times": aligned.text.times, "data-rows": aligned.text.rows, "data-first": k0, "data-last": k1 - 1,
    "data-mode": "lines", "data-unit": title,
  });
  const clipId = `plot-${++clipSeq}`;
  svg.append(h("svg:defs", {}, h("svg:clipPath", { id: clipId }, h("svg:rect", { x: M.l, y: M.t - 2, width: iw, height: ih + 4 }))));
  const grid = h("svg:g", { class: "grid" });
  for (const [v, text] of yLabels) {
    const yy = y(v);
    grid.append(h("svg:line", { x1: M.l, x2: M.l + iw, y1: yy, y2: yy }), h("svg:text", { x: M.l - 8, y: yy + 4, class: "ylabel" }, text));
  }
  if (title) grid.append(h("svg:text", { class: "ytitle", x: 12, y: M.t + ih / 2, transform: `rotate(-90 12 ${M.t + ih / 2})` }, title));
  const { ticks, step: tstep, months } = timeTicks(t0, t1, iw);
  const multiDay = !months && new Date(t0).getUTCDate() !== new Date(t1).getUTCDate();
  const pad = (n) => String(n).padStart(2, "0");
  for (const t of ticks) {
    const d = new Date(t);
    const label = months >= 12 ? String(d.getUTCFullYear()) : months ? `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}`
      : `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}${tstep < 60000 ? ":" + pad(d.getUTCSeconds()) : ""}`;
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
  const shown = k1 - k0;
  const few = shown <= 80;
  // More samples than pixel columns: envelopes under mean lines.
  const envelope = shown > iw;
  if (envelope) svg.setAttribute("data-mode", "envelope");
  const plot = h("svg:g", { class: "plot", "clip-path": `url(#${clipId})` });
  const envelopes = h("svg:g", { class: "envelopes" }), lines = h("svg:g", { class: "lines" });
  const p1 = (v) => v.toFixed(1);
  for (const s of drawOrder(aligned.lines.map((l) => l.path))) {
    const l = aligned.lines[s];
    const [a, b] = ranges[s];
    const yv = normalize ? (v) => y(b > a ? ((v - a) / (b - a)) * 100 : 50) : y;
    const attrs = { class: "series", stroke: colors[s], "data-path": l.path, "data-values": aligned.text.values[s] };
    if (envelope) {
      const runs = columnEnvelope(xs, l.values, l.joined, k0, k1);
      let env = "", mean = "";
      for (const r of runs) {
        // Each column is a pixel wide: its edges at c ± 0.5.
        env += r.map((cl, k) => `${k ? "L" : "M"}${p1(cl.c - 0.5)},${p1(yv(cl.hi))}L${p1(cl.c + 0.5)},${p1(yv(cl.hi))}`).join("");
        for (let k = r.length - 1; k >= 0; k--) env += `L${p1(r[k].c + 0.5)},${p1(yv(r[k].lo))}L${p1(r[k].c - 0.5)},${p1(yv(r[k].lo))}`;
        if (r.length) env += "Z";
        mean += r.map((cl, k) => `${k ? "L" : "M"}${p1(cl.c)},${p1(yv(cl.mean))}`).join("");
      }
      // Light enough that several envelopes overlapping stay apart from the lines over them.
      envelopes.append(h("svg:path", { class: "envelope", d: env, fill: colors[s], "fill-opacity": aligned.lines.length > 2 ? 0.1 : 0.16, "data-path": l.path }));
      lines.append(h("svg:path", { ...attrs, d: mean }));
      continue;
    }
    // One sample beyond each end of the range, so that the lines reach the frame.
    const a0 = Math.max(0, k0 - 1), a1 = Math.min(times.length, k1 + 1);
    const runs = lineRuns(xs.subarray(a0, a1), l.values.subarray(a0, a1), l.joined.subarray(a0, a1), yv);
    const d = runs.map((r) => r.map(([px, py], k) => `${k ? "L" : "M"}${p1(px)},${p1(py)}`).join("")).join("");
    const dots = [];
    for (const r of runs) {
      if (few) for (const [px, py] of r) dots.push(h("svg:circle", { cx: p1(px), cy: p1(py), r: 2.5, fill: colors[s] }));
      else if (r.length === 1) dots.push(h("svg:circle", { cx: p1(r[0][0]), cy: p1(r[0][1]), r: 2, fill: colors[s] }));
    }
    lines.append(h("svg:path", { ...attrs, d }), ...dots);
  }
  plot.append(envelopes, lines);
  svg.append(plot);
  // Hover: a cursor and the values at the nearest sample, or the pixel column's minimum, mean and maximum.
  const cursor = h("svg:line", { class: "cursor", y1: M.t, y2: M.t + ih, visibility: "hidden" });
  const brush = h("svg:rect", { class: "brush", y: M.t, height: ih, x: M.l, width: 0, visibility: "hidden" });
  const overlay = h("svg:rect", { x: M.l, y: M.t, width: iw, height: ih, class: onZoom ? "overlay zoomable" : "overlay" });
  svg.append(...edgeLabels, brush, cursor, overlay);
  const tip = h("div", { class: "tip", hidden: true });
  const px = (e) => e.clientX - svg.getBoundingClientRect().left;
  const unitText = (s) => (units[s] === "%" ? " %" : "");
  const hover = (e) => {
    if (aligned.lines.length === 0 || shown === 0) return;
    const mx = px(e);
    let rows, at, head;
    const c = Math.round(mx);
    const c0 = lowerBound(xs, c - 0.5), c1 = lowerBound(xs, c + 0.5);
    if (envelope && c1 - c0 > 1) {
      // The samples whose column is this one.
      at = c;
      head = [h("div", { class: "tip-time" }, `${isoMs(times[c0]).replace("T", " ")} – ${isoMs(times[c1 - 1]).slice(11)}`),
        h("div", { class: "tip-sub" }, `${fmtCount(c1 - c0)} in this pixel column: min / mean / max`)];
      rows = aligned.lines.map((l, s) => {
        const st = rangeStats(l.values, c0, c1);
        return h("div", { "data-path": l.path, "data-min": st ? String(st.min) : "", "data-mean": st ? String(st.mean) : "", "data-max": st ? String(st.max) : "" },
          h("span", { class: "swatch", style: `background:${colors[s]}` }),
          h("span", { class: "tip-val" }, st ? `${fmt(st.min)} / ${fmt(st.mean)} / ${fmt(st.max)}${unitText(s)}` : "no value"), " ", labels[s]);
      });
      tip.dataset.from = isoMs(times[c0]);
      tip.dataset.to = isoMs(times[c1 - 1]);
    } else {
      const t = t0 + ((mx - M.l) / iw) * (t1 - t0);
      const j = Math.min(Math.max(lowerBound(times, t), k0), k1 - 1);
      const k = j > k0 && Math.abs(times[j - 1] - t) <= Math.abs(times[j] - t) ? j - 1 : j;
      at = xs[k];
      head = [h("div", { class: "tip-time" }, isoMs(times[k]).replace("T", " "))];
      rows = aligned.lines.map((l, s) => {
        const v = l.values[k];
        return h("div", { "data-path": l.path }, h("span", { class: "swatch", style: `background:${colors[s]}` }),
          h("span", { class: "tip-val" }, Number.isNaN(v) ? (l.present[k] ? "no value" : "absent") : `${fmt(v)}${unitText(s)}`), " ", labels[s]);
      });
      tip.dataset.from = tip.dataset.to = isoMs(times[k]);
    }
    cursor.setAttribute("x1", at);
    cursor.setAttribute("x2", at);
    cursor.setAttribute("visibility", "visible");
    tip.replaceChildren(...head, ...rows);
    tip.hidden = false;
    tip.style.left = `${at + 12 + 440 > W ? Math.max(0, at - 452) : at + 12}px`;
    tip.style.top = `${M.t + 4}px`;
  };
  // Zoom: a drag over the chart selects a time range.
  let drag = null;
  const tAt = (mx) => t0 + ((Math.min(Math.max(mx, M.l), M.l + iw) - M.l) / iw) * (t1 - t0);
  // Pointer events, captured: a mouse, a pen or a finger, and a drag that leaves the chart goes on.
  overlay.addEventListener("pointerdown", (e) => {
    if (!onZoom || e.button !== 0 || shown === 0) return;
    e.preventDefault();
    overlay.setPointerCapture?.(e.pointerId);
    drag = { x: Math.min(Math.max(px(e), M.l), M.l + iw) };
  });
  overlay.addEventListener("pointermove", (e) => {
    if (drag) {
      const mx = Math.min(Math.max(px(e), M.l), M.l + iw);
      brush.setAttribute("x", Math.min(drag.x, mx));
      brush.setAttribute("width", Math.abs(mx - drag.x));
      brush.setAttribute("visibility", "visible");
    }
    hover(e);
  });
  const endDrag = (e) => {
    if (!drag) return;
    const a = drag.x, b = Math.min(Math.max(px(e), M.l), M.l + iw);
    drag = null;
    brush.setAttribute("visibility", "hidden");
    if (Math.abs(b - a) < 4) return;
    onZoom({ from: Math.ceil(tAt(Math.min(a, b))), to: Math.floor(tAt(Math.max(a, b))) });
  };
  overlay.addEventListener("pointerup", endDrag);
  overlay.addEventListener("pointercancel", () => { drag = null; brush.setAttribute("visibility", "hidden"); });
  overlay.addEventListener("pointerleave", () => { if (!drag) { cursor.setAttribute("visibility", "hidden"); tip.hidden = true; } });
  // Keys, while the chart has focus: zoom, move, and the whole log again (zoomKey).
  if (zoomable) {
    svg.addEventListener("keydown", (e) => {
      if (e.altKey || e.ctrlKey || e.metaKey) return;
      const r = zoomKey(e.key, t0, t1, times[0], times[times.length - 1]);
      if (r === undefined) return;
      e.preventDefault();
      onZoom(r);
    });
  }
  // A chart drawn again after a key keeps the focus.
  const focused = box.contains(document.activeElement) && document.activeElement?.tagName === "svg";
  box.replaceChildren(svg, tip);
  if (focused && zoomable) svg.focus({ preventScroll: true });
  return hint;
}

let clipSeq = 0;
const fmtCount = (n) => (n === 1 ? "1 sample" : `${n.toLocaleString("en-US")} samples`);
