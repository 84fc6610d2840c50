import { useLayoutEffect, useSyncExternalStore } from 'react';
import { currentLanguage, LANGUAGE_TAGS, type Language, subscribeToLanguage } from './language.ts';

/**
 * The UI's language, re-rendering the calling component (and so, from the app shell, the whole page) when it
 * is switched, and keeping `<html lang>` on it so screen readers and hyphenation follow.
 */
export function useLanguage(): Language {
  const language = useSyncExternalStore(subscribeToLanguage, currentLanguage);
  useLayoutEffect(() => {
    document.documentElement.lang = LANGUAGE_TAGS[language];
  }, [language]);
  return language;
}
