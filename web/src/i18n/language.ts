/** The languages the UI speaks. `en` is the fallback for every browser that asks for neither. */
export const LANGUAGES = ['en', 'pt'] as const;
export type Language = (typeof LANGUAGES)[number];

/** Each language's name in itself, so a person finds their own whatever the page is in now. */
export const LANGUAGE_NAMES: Readonly<Record<Language, string>> = {
  en: 'English',
  pt: 'Português',
};

/** The BCP 47 tag for `<html lang>` and number formatting (the Portuguese is Brazil's). */
export const LANGUAGE_TAGS: Readonly<Record<Language, string>> = { en: 'en', pt: 'pt-BR' };

const STORAGE_KEY = 'forja.language';

/**
 * The language for a browser's preferences (`navigator.languages`, best first): the first one the UI speaks
 * (`pt`, `pt-BR`, `pt-PT` … → Portuguese; `en-*` → English), else English.
 */
export function languageFromPreferences(preferences: readonly string[]): Language {
  for (const preference of preferences) {
    const primary = preference.toLowerCase().split('-')[0];
    if (isLanguage(primary)) return primary;
  }
  return 'en';
}

export function isLanguage(value: unknown): value is Language {
  return (LANGUAGES as readonly unknown[]).includes(value);
}

let current: Language | null = null;
const listeners = new Set<() => void>();

/** The language the person chose in this browser, else the browser's; read once, then kept here. */
export function currentLanguage(): Language {
  current ??= storedLanguage() ?? languageFromPreferences(browserPreferences());
  return current;
}

/** Switches the UI at once (every subscriber re-renders) and remembers the choice in this browser. */
export function setLanguage(language: Language): void {
  try {
    window.localStorage.setItem(STORAGE_KEY, language);
  } catch {
    // A browser that keeps nothing still switches for this page.
  }
  change(language);
}

/** For `useSyncExternalStore`: called on every switch, here or in another tab of this browser. */
export function subscribeToLanguage(listener: () => void): () => void {
  listeners.add(listener);
  if (listeners.size === 1 && typeof window !== 'undefined')
    window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && typeof window !== 'undefined')
      window.removeEventListener('storage', onStorage);
  };
}

function onStorage(event: StorageEvent): void {
  if (event.key === STORAGE_KEY && isLanguage(event.newValue)) change(event.newValue);
}

function change(language: Language): void {
  if (language === current) return;
  current = language;
  for (const listener of listeners) listener();
}

function storedLanguage(): Language | null {
  try {
    const value = window.localStorage.getItem(STORAGE_KEY);
    return isLanguage(value) ? value : null;
  } catch {
    return null;
  }
}

function browserPreferences(): readonly string[] {
  if (typeof navigator === 'undefined') return [];
  return navigator.languages?.length ? navigator.languages : [navigator.language];
}
