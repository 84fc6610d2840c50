import { describe, expect, it } from 'vitest';
import { parseRetryAfter } from './parse-retry-after.ts';

const now = Date.parse('2025-01-01T12:00:00Z');
const parse = (headers: Record<string, string>) => parseRetryAfter(new Headers(headers), now);

describe('parseRetryAfter', () => {
  it('reads seconds, fractional seconds and an HTTP date', () => {
    expect(parse({ 'retry-after': '2' })).toBe(2_000);
    expect(parse({ 'retry-after': '0.25' })).toBe(250);
    expect(parse({ 'retry-after': 'Wed, 01 Jan 2025 12:00:30 GMT' })).toBe(30_000);
  });

  it('treats a date in the past as now', () => {
    expect(parse({ 'retry-after': 'Wed, 01 Jan 2025 11:00:00 GMT' })).toBe(0);
  });

  it('prefers retry-after-ms', () => {
    expect(parse({ 'retry-after-ms': '1500.4', 'retry-after': '9' })).toBe(1_501);
  });

  it('ignores what it cannot read', () => {
    expect(parse({})).toBeUndefined();
    expect(parse({ 'retry-after': 'soon' })).toBeUndefined();
    expect(parse({ 'retry-after': '-3' })).toBeUndefined();
    expect(parse({ 'retry-after-ms': 'x', 'retry-after': '1' })).toBe(1_000);
  });
});
