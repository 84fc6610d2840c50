/** The marker the harness appends where it cut text (record ADR 0006's `[… truncado …]`). */
export const TRUNCATION_MARKER = '[… truncado …]';

/**
 * Keeps at most `maxCharacters` characters of `text` — counted in code points, so a surrogate pair (an
 * emoji, say) is never split into invalid text — and appends ` [… truncado …]` when something was cut.
 */
export function truncateText(text: string, maxCharacters: number): string {
  if (text.length <= maxCharacters) return text;
  const codePoints = Array.from(text);
  if (codePoints.length <= maxCharacters) return text;
  return `${codePoints.slice(0, maxCharacters).join('')} ${TRUNCATION_MARKER}`;
}
