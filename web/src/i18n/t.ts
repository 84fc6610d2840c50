import { en, type MessageKey, type Messages } from './en.ts';
import { currentLanguage, type Language } from './language.ts';
import { pt } from './pt.ts';

/** Every catalogue, by language; the compiler holds each to every key of `en`. */
export const CATALOGUES: Readonly<Record<Language, Messages>> = { en, pt };

export type MessageVariables = Readonly<Record<string, string | number>>;

/**
 * The message for `key` in the current language, `{name}` placeholders filled from `variables` (unknown
 * placeholders stay visible). Components re-render on a switch because the app shell calls `useLanguage`.
 */
export function t(key: MessageKey, variables: MessageVariables = {}): string {
  return CATALOGUES[currentLanguage()][key].replace(/\{(\w+)\}/g, (placeholder, name: string) =>
    name in variables ? String(variables[name]) : placeholder,
  );
}

/** Whether a dynamic key (e.g. built from a status) exists, so callers can fall back instead of showing a raw key. */
export function hasMessage(key: string): key is MessageKey {
  return Object.hasOwn(en, key);
}
