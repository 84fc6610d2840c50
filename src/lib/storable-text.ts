/*
 * What PostgreSQL cannot hold in `text` or `jsonb`, and a model or a process can send: the NUL character (no
 * text type stores U+0000; jsonb refuses `\u0000`) and lone UTF-16 surrogates (not Unicode, refused as escapes
 * by jsonb and unencodable as UTF-8). Each becomes U+FFFD, the replacement character (ADR 0305).
 */
/** The replacement character every unstorable code unit becomes. */
export const REPLACEMENT_CHARACTER = '\uFFFD';

/** How deep a value may nest and still be stored; deeper, `storableValue` throws `UnstorableValueError`. */
export const MAX_STORABLE_DEPTH = 200;

/** A value Forja cannot store as it is (nested too deep for the database's JSON parser). */
export class UnstorableValueError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnstorableValueError';
  }
}

/** Whether `text` holds a NUL or a lone surrogate. */
export function hasUnstorableText(text: string): boolean {
  return text.includes('\u0000') || !text.isWellFormed();
}

/** `text` with every NUL and every lone surrogate replaced by U+FFFD; the same string when it has none. */
export function storableText(text: string): string {
  if (!hasUnstorableText(text)) return text;
  return text.toWellFormed().replaceAll('\u0000', REPLACEMENT_CHARACTER);
}

/**
 * A JSON-like value with every string in it, object keys included, made storable (`storableText`). Returns
 * the same object when nothing changed, so the common case copies nothing. Throws `UnstorableValueError`
 * for a value nested deeper than `MAX_STORABLE_DEPTH`.
 */
export function storableValue<T>(value: T): T {
  return storableAt(value, 0) as T;
}

function storableAt(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return storableText(value);
  if (typeof value !== 'object' || value === null) return value;
  if (depth >= MAX_STORABLE_DEPTH)
    throw new UnstorableValueError(
      `a value nested deeper than ${MAX_STORABLE_DEPTH} levels cannot be stored`,
    );
  if (Array.isArray(value)) {
    const made = value.map((item) => storableAt(item, depth + 1));
    return made.some((item, index) => item !== value[index]) ? made : value;
  }
  if (value instanceof Date) return value;
  let changed = false;
  const entries = Object.entries(value).map(([key, item]) => {
    const madeKey = storableText(key);
    const made = storableAt(item, depth + 1);
    if (madeKey !== key || made !== item) changed = true;
    return [madeKey, made] as const;
  });
  return changed ? Object.fromEntries(entries) : value;
}
