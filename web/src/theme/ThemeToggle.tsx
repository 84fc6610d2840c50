import { useEffect, useState } from 'react';
import { t } from '../i18n/t.ts';

export type Theme = 'light' | 'dark';
const STORAGE_KEY = 'forja.theme';

/** The theme the person chose here, else the system's (`prefers-color-scheme`). */
export function initialTheme(): Theme {
  const stored = readStored();
  if (stored !== null) return stored;
  return window.matchMedia?.('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

function readStored(): Theme | null {
  try {
    const value = window.localStorage.getItem(STORAGE_KEY);
    return value === 'light' || value === 'dark' ? value : null;
  } catch {
    return null;
  }
}

/** A button that switches light/dark; the choice is kept in this browser, the page follows it at once. */
export function ThemeToggle() {
  const [theme, setTheme] = useState<Theme>(initialTheme);
  useEffect(() => {
    document.documentElement.dataset['theme'] = theme;
  }, [theme]);
  const next: Theme = theme === 'dark' ? 'light' : 'dark';
  const choose = () => {
    setTheme(next);
    try {
      window.localStorage.setItem(STORAGE_KEY, next);
    } catch {
      // A browser that keeps nothing still switches for this page.
    }
  };
  return (
    <button
      type="button"
      className="theme-toggle"
      data-testid="theme-toggle"
      data-theme={theme}
      aria-pressed={theme === 'dark'}
      onClick={choose}
    >
      {t('theme.dark')}
    </button>
  );
}
