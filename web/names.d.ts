/** One entry of the compact form (doc/FORMATS.md §3.4 of the repository). */
export interface NamesEntry {
  kind: "o" | "c" | "n";
  lang: string;
  /** A counter's English object; "" otherwise. */
  object: string;
  english: string;
  local: string;
}

/** A translated name. */
export interface TranslatedName {
  text: string;
  status: "unknown" | "english" | "translated" | "ambiguous";
}

/** A name a table gives two English names. */
export interface NamesAmbiguity {
  kind: "o" | "c" | "n";
  object: string;
  local: string;
  english: [string, string];
}

/** Reads the compact form, calling fn with each entry; a bad line throws a SyntaxError. */
export function parseCompact(text: string, fn: (e: NamesEntry) => void): void;

/** Localized object and counter names to English, as perfcalc --names-lang en. */
export class Translator {
  /** Compact forms, in order of precedence (the first wins). */
  constructor(...texts: string[]);
  readonly ambiguities: NamesAmbiguity[];
  object(name: string): TranslatedName;
  counter(object: string, name: string): TranslatedName;
  /** A column ({path, parts}) with its object and counter in English; unknown collects the names not translated. */
  column<T extends { path: string; parts: { machine: string; object: string; counter: string } }>(col: T, unknown?: Set<string>): T;
  /** columns()'s result with English paths and parts, and the names not translated. */
  columns<R extends { columns: { path: string; parts: { machine: string; object: string; counter: string } }[] }>(result: R): R & { namesUnknown: string[] };
}
