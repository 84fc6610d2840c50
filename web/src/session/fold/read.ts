/**
 * Readers that never throw: event payloads come from the server's log and may be older, newer or broken.
 * A page must show what it can and skip the rest, never go blank.
 */
export type Fields = Readonly<Record<string, unknown>>;

export function fields(value: unknown): Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Fields)
    : {};
}

export function text(value: unknown, fallback = ''): string {
  return typeof value === 'string' ? value : fallback;
}

export function optionalText(value: unknown): string | null {
  return typeof value === 'string' && value.length > 0 ? value : null;
}

export function whole(value: unknown, fallback = 0): number {
  const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof number === 'number' && Number.isFinite(number) ? number : fallback;
}

export function list(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : [];
}

export function texts(value: unknown): string[] {
  return list(value).filter((item): item is string => typeof item === 'string');
}

export function bool(value: unknown): boolean {
  return value === true;
}
