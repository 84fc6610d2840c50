import { currentLanguage, type Language, LANGUAGE_TAGS } from './language.ts';

/** One formatter per language, made when first needed: making one costs far more than formatting with it. */
const formatters = new Map<Language, Intl.NumberFormat>();

/** Token counts and similar, grouped for reading in the current language (12,345 in English, 12.345 in Portuguese). */
export function formatNumber(value: number): string {
  const language = currentLanguage();
  let formatter = formatters.get(language);
  if (formatter === undefined) {
    formatter = new Intl.NumberFormat(LANGUAGE_TAGS[language]);
    formatters.set(language, formatter);
  }
  return formatter.format(value);
}
