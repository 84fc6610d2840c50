import { describe, expect, it } from 'vitest';
import { redactSecret } from './redact-secret.ts';

describe('redactSecret', () => {
  it('replaces every occurrence of the secret', () => {
    expect(redactSecret('key sk-abc123 and sk-abc123 again', 'sk-abc123')).toBe(
      'key [redacted] and [redacted] again',
    );
  });

  it('leaves text alone without a secret, or with one too short to be a key', () => {
    expect(redactSecret('a b c', undefined)).toBe('a b c');
    expect(redactSecret('a b c', 'a')).toBe('a b c');
  });
});
