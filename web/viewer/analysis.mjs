// The Analysis view's pure parts (no DOM, no module): what dropped PAL
// threshold files ask (their questions) and inherit, which of them run,
// the question values typed as NAME=VALUE, the alerts in time order, and
// for an alert the bands drawn behind its chart and the samples around its
// slice. The report is perfcalc analyze -f json's (the module's analyze).

/** The attributes of an XML start tag's text (names upper-cased), entities &amp; &lt; &gt; &quot; &apos; read. */
function attributes(text) {
  const out = {};
  for (const m of text.matchAll(/([A-Za-z_][\w.-]*)\s*=\s*("([^"]*)"|'([^']*)')/g)) {
    out[m[1].toUpperCase()] = unescapeXML(m[3] ?? m[4]);
  }
  return out;
}

const ENTITIES = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };
/** The text of XML character data: the five named entities and numeric references. */
export function unescapeXML(s) {
  return s.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-z]+);/g, (all, e) => {
    if (e[0] !== "#") return ENTITIES[e] ?? all;
    const n = e[1] === "x" ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
    return n > 0 && n <= 0x10ffff ? String.fromCodePoint(n) : all;
  });
}

/**
 * What a threshold file says of itself, read loosely for the form (the
 * module reads the file itself): its questions [{name, type, default,
 * options, text}] and the files it inherits (INHERITANCE FILEPATH).
 */
export function describeThresholdFile(text) {
  const questions = [];
  for (const m of text.matchAll(/<QUESTION\b([^>]*?)(?:\/>|>([\s\S]*?)<\/QUESTION\s*>)/gi)) {
    const a = attributes(m[1]);
    if (!a.QUESTIONVARNAME) continue;
    questions.push({
      name: a.QUESTIONVARNAME, type: (a.DATATYPE ?? "string").toLowerCase(), default: a.DEFAULTVALUE ?? null,
      options: a.OPTIONS ? a.OPTIONS.split(",").map((o) => o.trim()).filter(Boolean) : [],
      text: unescapeXML((m[2] ?? "").replace(/<[^>]*>/g, "")).replace(/\s+/g, " ").trim(),
    });
  }
  const inherits = [];
  for (const m of text.matchAll(/<INHERITANCE\b([^>]*)>/gi)) {
    const a = attributes(m[1]);
    if (a.FILEPATH) inherits.push(a.FILEPATH);
  }
  return { questions, inherits };
}

/** A file's name without folders, lower case: how analyze matches INHERITANCE (case and folders ignored). */
export const baseName = (name) => name.replace(/^.*[\\/]/, "").toLowerCase();

/**
 * Which of the dropped threshold files run: those no other dropped file
 * inherits (the others are there for INHERITANCE only); when every file
 * is inherited by another (a cycle), all run. files: [{name, inherits}].
 * Returns an array of booleans.
 */
export function defaultRuns(files) {
  const inherited = new Set(files.flatMap((f) => f.inherits.map(baseName)));
  const runs = files.map((f) => !inherited.has(baseName(f.name)));
  return runs.some(Boolean) ? runs : files.map(() => true);
}

/**
 * The questions of the files that run and of what they inherit, each once
 * (the first file asking it wins), in the order of the files.
 */
export function questionsOf(files) {
  const seen = new Set(), out = [];
  for (const f of files) {
    for (const q of f.questions) {
      const k = q.name.toLowerCase();
      if (seen.has(k)) continue;
      seen.add(k);
      out.push(q);
    }
  }
  return out;
}

/**
 * Question values typed as NAME=VALUE, one per line or separated by ";"
 * (blank lines ignored): {NAME: VALUE}, or throws an Error naming the
 * line that is not NAME=VALUE.
 */
export function parseValues(text) {
  const out = {};
  text.split(/[\n;]/).forEach((line, k) => {
    const l = line.trim();
    if (l === "") return;
    const eq = l.indexOf("=");
    if (eq <= 0) throw new Error(`question values: “${l}” (entry ${k + 1}) is not NAME=VALUE`);
    out[l.slice(0, eq).trim()] = l.slice(eq + 1).trim();
  });
  return out;
}

/** The slice interval typed: "" or "auto" → "auto", else whole seconds ≥ 1, or throws. */
export function parseInterval(text) {
  const t = String(text).trim().toLowerCase();
  if (t === "" || t === "auto" || t === "0") return "auto";
  if (!/^\d+$/.test(t) || Number(t) > 365 * 86400) throw new Error(`interval: “${text}” is not a whole number of seconds (or auto)`);
  return Number(t);
}

/** ISO 8601 UTC text → milliseconds since 1970. */
export const utcMs = (iso) => Date.parse(iso);

/**
 * The report's alerts in time order (start, then critical before warning,
 * then priority, then the report's order), each with its index in the
 * report's alerts.
 */
export function alertsInTimeOrder(report) {
  const rank = (a) => (a.condition === "Critical" ? 0 : 1);
  return report.alerts.map((a, index) => ({ ...a, index }))
    .sort((a, b) => utcMs(a.start) - utcMs(b.start) || rank(a) - rank(b) || b.priority - a.priority || a.index - b.index);
}

/** Counts of critical and warning alerts: {critical, warning}. */
export function alertCounts(alerts) {
  let critical = 0, warning = 0;
  for (const a of alerts) if (a.condition === "Critical") critical++; else warning++;
  return { critical, warning };
}

/**
 * Critical and warning alerts per analysis: a function of an analysis of
 * the report giving its {critical, warning}. Alerts name their analysis by
 * id and name (by name alone in a report without alert ids), so two
 * analyses of the same name keep their own counts.
 */
export function alertCountsByAnalysis(report) {
  const key = (id, name) => `${id}\u0000${name}`;
  const counts = new Map();
  for (const a of report.alerts) {
    const k = typeof a.id === "string" ? key(a.id, a.analysis) : key(undefined, a.analysis);
    const c = counts.get(k) ?? { critical: 0, warning: 0 };
    if (a.condition === "Critical") c.critical++; else c.warning++;
    counts.set(k, c);
  }
  const none = { critical: 0, warning: 0 };
  return (analysis) => counts.get(key(analysis.id, analysis.name)) ?? counts.get(key(undefined, analysis.name)) ?? none;
}

/**
 * The analysis of an alert and its series: {analysis, series} (series may
 * be undefined). The alert names its analysis by id (with its name, as ids
 * may repeat in a threshold file) and its series by datasource and path:
 * two analyses of the same name, or one path in two datasources of an
 * analysis, are told apart. A report without alert ids (perfcalc before
 * them) is matched by name, category and path.
 */
export function alertSource(report, alert) {
  const byId = typeof alert.id === "string";
  const analyses = report.analyses.filter((a) => a.name === alert.analysis &&
    (byId ? a.id === alert.id : !alert.category || a.category === alert.category));
  for (const analysis of analyses) {
    const series = (analysis.series ?? []).find((s) => s.path === alert.path &&
      (typeof alert.datasource !== "string" || s.datasource === alert.datasource));
    if (series) return { analysis, series };
  }
  return { analysis: analyses[0], series: undefined };
}

/**
 * The bands behind an alert's chart, [{condition, lo, hi, from}] with
 * ±Infinity for an open end, warnings first (critical drawn on top):
 * the bands of the analysis' chart of the series' datasource (a band with
 * useMax reaches the chart's top, or bottom when not greaterThan); where
 * the analysis has no chart with bands, its thresholds on that datasource
 * (gt/ge from the value up, lt/le from it down; trend-only thresholds and
 * eq/ne make no band). from says which: "chart" or "thresholds".
 */
export function alertBands(analysis, series) {
  if (!analysis) return [];
  const ds = series?.datasource;
  const charts = (analysis.charts ?? []).filter((c) => (c.bands ?? []).length > 0);
  const chart = charts.find((c) => c.datasource === ds) ?? (charts.length === 1 ? charts[0] : undefined);
  let bands;
  if (chart) {
    bands = chart.bands.map((b) => ({
      condition: b.condition,
      lo: b.useMax && !b.greaterThan ? -Infinity : b.min,
      hi: b.useMax && b.greaterThan ? Infinity : b.max,
      from: "chart",
    }));
  } else {
    bands = (analysis.thresholds ?? []).filter((t) => !t.trendOnly && (!ds || !t.datasource || t.datasource === ds) && Number.isFinite(t.value))
      .flatMap((t) => {
        if (t.operator === "gt" || t.operator === "ge") return [{ condition: t.condition, lo: t.value, hi: Infinity, from: "thresholds" }];
        if (t.operator === "lt" || t.operator === "le") return [{ condition: t.condition, lo: -Infinity, hi: t.value, from: "thresholds" }];
        return [];
      });
  }
  const order = (c) => (c === "Critical" ? 1 : 0);
  return bands.filter((b) => !(b.hi < b.lo) && !Number.isNaN(b.lo) && !Number.isNaN(b.hi))
    .sort((a, b) => order(a.condition) - order(b.condition));
}

/**
 * The bands ({condition, lo, hi}, ±Infinity for an open end) that lie
 * wholly beyond a chart's value axis [lo, hi]: {above, below}, in the
 * bands' order. The chart marks them at that edge with a label, so that a
 * threshold the values stay far from is still seen (as the HTML report
 * does).
 */
export function bandsBeyond(bands, lo, hi) {
  const above = [], below = [];
  for (const b of bands) {
    if (Number.isFinite(b.lo) && (b.lo > hi || (b.lo >= hi && b.hi > b.lo))) above.push(b);
    else if (Number.isFinite(b.hi) && (b.hi < lo || (b.hi <= lo && b.hi > b.lo))) below.push(b);
  }
  return { above, below };
}

/** A band's range as the edge labels write it: "50 – 80", "≥ 80", "≤ 10"; fmt formats a number. */
export function bandRangeText(b, fmt = String) {
  if (!Number.isFinite(b.hi)) return `≥ ${fmt(b.lo)}`;
  if (!Number.isFinite(b.lo)) return `≤ ${fmt(b.hi)}`;
  return `${fmt(b.lo)} – ${fmt(b.hi)}`;
}

/**
 * The time window of an alert's chart in the log's local time (ms, as the
 * viewer's series hold them): the alert's slice (t0, t1) and around it
 * (from, to) a context of two slice lengths each side (the report's
 * interval, at least). bias: minutes west of UTC (local = UTC − bias).
 */
export function alertWindow(alert, intervalSeconds, bias) {
  const shift = bias * 60000;
  const t0 = utcMs(alert.start) - shift, t1 = utcMs(alert.end) - shift;
  const ctx = 2 * Math.max(t1 - t0, (intervalSeconds || 0) * 1000, 1000);
  return { t0, t1, from: t0 - ctx, to: t1 + ctx };
}

/** Samples shown at least on each side of an alert's slice (where the log has them). */
export const CONTEXT_SAMPLES = 5;

/**
 * The part of a series ({path, rows, times, values, statuses}, times
 * increasing) around an alert's window (alertWindow): the samples within
 * [from, to], widened to at least CONTEXT_SAMPLES samples before t0 and
 * after t1 (a log sampled less often than its slices still shows its
 * context), as subarrays, and the time span to draw {from, to}.
 */
export function windowSeries(s, win) {
  const n = s.times.length;
  let first = 0;
  while (first < n && s.times[first] < win.t0) first++; // the first sample of the slice (or after it)
  let end = first;
  while (end < n && s.times[end] <= win.t1) end++; // after the slice's last sample
  let a = first, b = end;
  while (a > 0 && (s.times[a - 1] >= win.from || first - a < CONTEXT_SAMPLES)) a--;
  while (b < n && (s.times[b] <= win.to || b - end < CONTEXT_SAMPLES)) b++;
  const from = Math.min(win.from, a < n ? s.times[a] : win.from), to = Math.max(win.to, b > 0 ? s.times[b - 1] : win.to);
  return {
    series: { path: s.path, rows: s.rows.subarray(a, b), times: s.times.subarray(a, b), values: s.values.subarray(a, b), statuses: s.statuses.subarray(a, b) },
    span: { from, to },
  };
}

/**
 * A series from the report's chart envelope of a series (points [start,
 * end, min, max], ISO UTC; used where the counter is not a column of the
 * log, e.g. a generated datasource): the maximum at each point's start,
 * rows numbered in order. bias as alertWindow's.
 */
export function envelopeSeries(path, points, bias) {
  const n = points.length, shift = bias * 60000;
  const rows = new Uint32Array(n), times = new Float64Array(n), values = new Float64Array(n), statuses = new Uint8Array(n);
  points.forEach((p, k) => {
    rows[k] = k;
    times[k] = utcMs(p[0]) - shift;
    values[k] = typeof p[3] === "number" ? p[3] : NaN;
  });
  return { path, rows, times, values, statuses };
}
