import { describe, expect, it } from 'vitest';
import { hashPassword, passwordProblem, UNKNOWN_PERSON_HASH, verifyPassword } from './passwords.ts';
import { hashSecret, newSecret, TOKEN_PREFIX } from './secrets.ts';
import { createSignInLimiter } from './sign-in-limiter.ts';

describe('passwords', () => {
  it('hashes with scrypt and a salt of its own, and verifies only the right password', async () => {
    const [first, second] = await Promise.all([
      hashPassword('correct horse battery'),
      hashPassword('correct horse battery'),
    ]);
    expect(first).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(first).not.toBe(second);
    expect(await verifyPassword('correct horse battery', first)).toBe(true);
    expect(await verifyPassword('correct horse batterz', first)).toBe(false);
    expect(await verifyPassword('anything at all', UNKNOWN_PERSON_HASH)).toBe(false);
    expect(await verifyPassword('anything', 'md5$whatever')).toBe(false);
  });

  it('refuses a short password, naming the rule', () => {
    expect(passwordProblem('short')).toBe('must be at least 12 characters');
    expect(passwordProblem('twelve chars')).toBeNull();
  });
});

describe('secrets', () => {
  it('are 256 random bits behind a prefix; only the SHA-256 is kept', () => {
    const { secret, hash } = newSecret(TOKEN_PREFIX);
    expect(secret).toMatch(/^forja_[A-Za-z0-9_-]{43}$/);
    expect(hash).toBe(hashSecret(secret));
    expect(hash).not.toContain(secret.slice(6));
  });
});

describe('the sign-in limiter', () => {
  it('stops an account after 5 failures and an address after 20, until the window moves on', () => {
    let now = 0;
    const limiter = createSignInLimiter({
      perAccount: 5,
      perAddress: 20,
      windowMs: 60_000,
      clock: () => now,
    });
    for (let attempt = 0; attempt < 5; attempt++) {
      expect(limiter.allow('ana', '10.0.0.1')).toEqual({ ok: true });
      limiter.failed('ana', '10.0.0.1');
    }
    expect(limiter.allow('ana', '10.0.0.2')).toEqual({ ok: false, retryAfterSeconds: 60 });
    expect(limiter.allow('bruno', '10.0.0.1')).toEqual({ ok: true });
    for (let name = 0; name < 15; name++) limiter.failed(`name${name}`, '10.0.0.1');
    expect(limiter.allow('bruno', '10.0.0.1')).toMatchObject({ ok: false });
    expect(limiter.allow('bruno', '10.0.0.3')).toEqual({ ok: true });
    now = 60_001;
    expect(limiter.allow('ana', '10.0.0.1')).toEqual({ ok: true });
  });

  it('a success clears the account, not the address', () => {
    const limiter = createSignInLimiter({
      perAccount: 2,
      perAddress: 3,
      windowMs: 60_000,
      clock: () => 0,
    });
    limiter.failed('ana', 'a');
    limiter.failed('ana', 'a');
    limiter.succeeded('ana');
    expect(limiter.allow('ana', 'b')).toEqual({ ok: true });
    limiter.failed('ana', 'a');
    expect(limiter.allow('carla', 'a')).toMatchObject({ ok: false });
  });
});
