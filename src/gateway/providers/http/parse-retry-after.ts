/**
 * How long a provider asked us to wait, in milliseconds, or undefined when it did not say.
 * `retry-after-ms` (OpenAI, fractional milliseconds) wins over `retry-after`, which is either seconds
 * or an HTTP date (RFC 9110); a date in the past means "now". `now` is injected so dates are testable.
 */
export function parseRetryAfter(headers: Headers, now: number): number | undefined {
  const milliseconds = parseNonNegativeNumber(headers.get('retry-after-ms'));
  if (milliseconds !== undefined) return Math.ceil(milliseconds);

  const value = headers.get('retry-after');
  if (value === null) return undefined;
  const seconds = parseNonNegativeNumber(value);
  if (seconds !== undefined) return Math.ceil(seconds * 1000);
  // HTTP dates start with the day name; this keeps `Date.parse` from reading "-3" as a year.
  const date = /^\s*[A-Za-z]{3}/.test(value) ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

function parseNonNegativeNumber(value: string | null): number | undefined {
  if (value === null || !/^\s*\d+(\.\d+)?\s*$/.test(value)) return undefined;
  return Number(value);
}
