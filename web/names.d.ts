/**
 * PAL's CounterLang.xml (its text) as the compact form (doc/FORMATS.md §3.4)
 * that the translate option of relog, stats, columns, decode and analyze
 * takes, for the languages langs (all when empty), as `perfcalc names
 * --compact` writes it. Needs DOMParser (a browser).
 */
export function compactFromCounterLang(xml: string, langs?: string[]): string;
