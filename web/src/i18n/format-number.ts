import { currentLanguage, LANGUAGE_TAGS } from './language.ts';

/** Token counts and similar, grouped for reading in the current language (12,345 in English, 12.345 in Portuguese). */
export function formatNumber(value: number): string {
  return new Intl.NumberFormat(LANGUAGE_TAGS[currentLanguage()]).format(value);
}
