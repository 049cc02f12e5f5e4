// Names in any language (doc/COMMANDS.md §7.1): localized object and
// counter names to English, from the compact form of a translation table
// (doc/FORMATS.md §3.4) that `perfcalc names --compact CounterLang.xml`
// writes. The same rules as the command's package engine/translate: names
// compare case-insensitively, a name that is already English is kept, a
// counter is looked up in its object's scope first, then among the
// counters of every object and the name-table pairs; a localized name one
// source gives two English names is ambiguous and kept. The module has no
// translation (its size budget): the JS package translates what the module
// returns.

const HEADER = "perfcalc-names 1";

// fold maps a name to one case as PDH compares names: each code point to
// the lower case of its upper case, where both are single code points
// (Unicode's simple case mappings, as Go's unicode.ToUpper/ToLower).
function fold(s) {
  let out = "";
  for (const c of s) {
    let u = c.toUpperCase();
    if ([...u].length !== 1) u = c;
    let l = u.toLowerCase();
    if ([...l].length !== 1) l = u;
    out += l;
  }
  return out;
}

/**
 * Reads the compact form: calls fn(entry) for each entry
 * ({kind: "o"|"c"|"n", lang, object, english, local}); a malformed line
 * throws a SyntaxError naming its number.
 */
export function parseCompact(text, fn) {
  const lines = text.split("\n");
  if (lines[0].replace(/\r$/, "") !== HEADER) throw new SyntaxError(`perfcalc names: line 1: is not the header "${HEADER}"`);
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i].replace(/\r$/, "");
    if (line === "" || line[0] === "#") continue;
    const f = line.split("\t");
    const kind = f[0];
    const want = kind === "c" ? 5 : 4;
    if (kind !== "o" && kind !== "c" && kind !== "n") throw new SyntaxError(`perfcalc names: line ${i + 1}: kind is not o, c or n`);
    if (f.length !== want) throw new SyntaxError(`perfcalc names: line ${i + 1}: has ${f.length} fields; a line of kind ${kind} has ${want}`);
    for (const v of f) {
      if (v === "" || v.length > 2048 || /[\x00-\x1f\x7f]/.test(v)) throw new SyntaxError(`perfcalc names: line ${i + 1}: a field is empty, too long or holds a control character`);
    }
    fn(kind === "c"
      ? { kind, lang: f[1], object: f[2], english: f[3], local: f[4] }
      : { kind, lang: f[1], object: "", english: f[2], local: f[3] });
  }
}

/** A translation table: localized names to English. */
export class Translator {
  /** texts: compact forms, in order of precedence (the first wins). */
  constructor(...texts) {
    this.english = new Set();
    this.objects = new Map();
    this.counters = new Map();
    this.names = new Map();
    this.ambiguities = [];
    texts.forEach((t, src) => parseCompact(t, (e) => this.add(src, e)));
  }

  add(src, e) {
    const put = (m, key, report) => {
      const t = m.get(key);
      if (t === undefined || src < t.src) { m.set(key, { english: e.english, src, ambiguous: false }); return; }
      if (src > t.src || t.english === e.english || t.ambiguous || fold(t.english) === fold(e.english)) return;
      t.ambiguous = true;
      if (report) this.ambiguities.push({ kind: e.kind, object: e.object, local: e.local, english: [t.english, e.english] });
    };
    const lo = fold(e.local);
    if (e.kind === "o") {
      this.english.add(`o\0${fold(e.english)}`);
      put(this.objects, lo, true);
    } else if (e.kind === "c") {
      this.english.add(`c\0${fold(e.object)}\0${fold(e.english)}`);
      this.english.add(`n\0${fold(e.english)}`);
      put(this.counters, `${fold(e.object)}\0${lo}`, true);
      put(this.names, lo, false);
    } else {
      this.english.add(`o\0${fold(e.english)}`);
      this.english.add(`n\0${fold(e.english)}`);
      put(this.objects, lo, true);
      put(this.names, lo, false);
    }
  }

  static pick(name, a, b) {
    if (a === undefined || (b !== undefined && b.src < a.src)) a = b;
    if (a === undefined) return { text: name, status: "unknown" };
    if (a.ambiguous) return { text: name, status: "ambiguous" };
    return { text: a.english, status: "translated" };
  }

  /** Translates an object name: {text, status}. */
  object(name) {
    if (this.english.has(`o\0${fold(name)}`)) return { text: name, status: "english" };
    return Translator.pick(name, this.objects.get(fold(name)), this.names.get(fold(name)));
  }

  /** Translates a counter of the object whose English name is object. */
  counter(object, name) {
    const n = fold(name);
    if (this.english.has(`c\0${fold(object)}\0${n}`) || this.english.has(`n\0${n}`)) return { text: name, status: "english" };
    return Translator.pick(name, this.counters.get(`${fold(object)}\0${n}`), this.names.get(n));
  }

  /**
   * Translates a column ({path, parts}, as columns() and decode() give
   * them): its path and parts with the object and counter in English,
   * every other byte of the path kept; unknown collects the names not
   * translated ("object X", "counter Y (of Z)").
   */
  column(col, unknown = new Set()) {
    const p = col.parts;
    const o = this.object(p.object);
    const c = p.counter === "*" ? { text: "*", status: "english" } : this.counter(o.text, p.counter);
    if (o.status === "unknown" || o.status === "ambiguous") unknown.add(`object ${p.object}`);
    if (c.status === "unknown" || c.status === "ambiguous") unknown.add(`counter ${p.counter} (of ${o.text})`);
    const start = (p.machine ? 2 + p.machine.length : 0) + 1;
    let path = col.path;
    if (path.substr(start, p.object.length) === p.object && path.endsWith(p.counter)) {
      path = path.slice(0, start) + o.text + path.slice(start + p.object.length, path.length - p.counter.length) + c.text;
    }
    return { ...col, path, parts: { ...p, object: o.text, counter: c.text } };
  }

  /**
   * Translates the result of columns(): its columns' paths and parts, and
   * namesUnknown, the names not translated (sorted).
   */
  columns(result) {
    const unknown = new Set();
    const columns = result.columns.map((col) => this.column(col, unknown));
    return { ...result, columns, namesUnknown: [...unknown].sort() };
  }
}
