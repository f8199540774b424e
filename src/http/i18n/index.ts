import { de } from './de.js';
import { es } from './es.js';
import { fr } from './fr.js';

/**
 * Catalogs of the human-readable texts of discovery and `/doc`, keyed by the English source text
 * (the English text lives next to the argument it describes). Error messages are never translated
 * (decisions.md X 19).
 */
export type Catalog = Record<string, string>;

const catalogs: Record<string, Catalog> = {};

export function registerCatalog(lang: string, catalog: Catalog): void {
  catalogs[lang] = catalog;
}

export function catalogFor(lang: string): Catalog | undefined {
  return catalogs[lang];
}

/** The text in `lang`, or the English source when the language is the default or lacks it. */
export function translate(text: string, lang: string): string {
  if (!lang || lang === 'en') return text;
  return catalogs[lang]?.[text] ?? text;
}

// The shipped catalogs (common.md 1.5): Spanish, French and German.
registerCatalog('es', es);
registerCatalog('fr', fr);
registerCatalog('de', de);
