// Names in any language (doc/COMMANDS.md §7.1): the module translates
// (the translate option of relog, stats, columns, decode and analyze takes
// compact forms, doc/FORMATS.md §3.4); this file holds only what is
// host-specific: PAL's CounterLang.xml turned into the compact form in a
// browser, with its DOMParser, as `perfcalc names --compact` does
// (internal/counterlang). In Node, give the compact form that command
// writes: there is no XML parser in Node, and the package adds none.

const HEADER = "perfcalc-names 1";

// bad reports a name the compact form cannot hold (a tab, a line end or
// another control character), as perfcalc names --compact skips it.
const bad = (s) => /[\x00-\x1f\x7f]/.test(s);

/**
 * PAL's CounterLang.xml (its text) as the compact form, the entries of the
 * languages langs (all when empty: deDE, frFR, …) that translate a name,
 * as `perfcalc names --compact CounterLang.xml --lang ...` writes it.
 * Needs DOMParser (a browser); throws a SyntaxError naming what is wrong.
 */
export function compactFromCounterLang(xml, langs = []) {
  if (typeof DOMParser !== "function") throw new TypeError("perfcalc: compactFromCounterLang needs DOMParser (a browser); elsewhere use perfcalc names --compact CounterLang.xml");
  const doc = new DOMParser().parseFromString(xml, "application/xml");
  const root = doc.documentElement;
  if (root.nodeName !== "CounterLang" || doc.getElementsByTagName("parsererror").length) throw new SyntaxError("perfcalc: not PAL's CounterLang.xml (no <CounterLang> root, or not XML)");
  const entries = []; // [kind, lang, object, english, local]
  const add = (kind, object, el) => {
    const names = new Map([...el.attributes].map((a) => [a.name, a.value.trim()]));
    const en = names.get("enUS");
    if (!en) throw new SyntaxError(`perfcalc: CounterLang: <${el.nodeName}> without enUS`);
    for (const lang of [...names.keys()].filter((l) => l !== "enUS").sort()) {
      const v = names.get(lang);
      if (v && (langs.length === 0 || langs.includes(lang))) entries.push([kind, lang, object, en, v]);
    }
    return en;
  };
  for (const obj of root.children) {
    if (obj.nodeName !== "CounterObject") throw new SyntaxError(`perfcalc: CounterLang: unexpected element <${obj.nodeName}>`);
    const en = add("o", "", obj);
    for (const c of obj.children) add("c", en, c);
  }
  // Languages whose names are all English translate nothing: left out.
  const differs = new Set(entries.filter((e) => e[3] !== e[4]).map((e) => e[1]));
  let text = HEADER + "\n";
  for (const [kind, lang, object, en, local] of entries) {
    if (!differs.has(lang) || [lang, object, en, local].some(bad)) continue;
    text += kind === "c" ? `c\t${lang}\t${object}\t${en}\t${local}\n` : `o\t${lang}\t${en}\t${local}\n`;
  }
  if (differs.size === 0) throw new SyntaxError("perfcalc: CounterLang: no translations");
  return text;
}
