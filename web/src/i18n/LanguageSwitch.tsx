import { useId } from 'react';
import { isLanguage, LANGUAGE_NAMES, LANGUAGE_TAGS, LANGUAGES, setLanguage } from './language.ts';
import { t } from './t.ts';
import { useLanguage } from './use-language.ts';

/** The header's language choice: each language named in itself; the page follows at once and the browser remembers. */
export function LanguageSwitch() {
  const language = useLanguage();
  const id = useId();
  return (
    <span className="language-switch">
      <label htmlFor={id} className="visually-hidden">
        {t('language.label')}
      </label>
      <select
        id={id}
        data-testid="language-switch"
        value={language}
        onChange={(event) => {
          if (isLanguage(event.target.value)) setLanguage(event.target.value);
        }}
      >
        {LANGUAGES.map((option) => (
          <option key={option} value={option} lang={LANGUAGE_TAGS[option]}>
            {LANGUAGE_NAMES[option]}
          </option>
        ))}
      </select>
    </span>
  );
}
