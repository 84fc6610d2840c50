import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hashPassword, passwordProblem, UNKNOWN_PERSON_HASH, verifyPassword } from './passwords.ts';
import { hashSecret, newSecret, TOKEN_PREFIX } from './secrets.ts';
import { backoffSeconds, clientKey, DEFAULT_SIGN_IN_BACKOFF } from './sign-in-limiter.ts';

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

describe('the sign-in backoff', () => {
  const backoff = DEFAULT_SIGN_IN_BACKOFF;

  it('costs nothing while free, then waits 1, 2, 4 … seconds, up to 15 minutes', () => {
    expect([5, 6, 7, 8, 9].map((failures) => backoffSeconds(failures, 5, backoff))).toEqual([
      0, 1, 2, 4, 8,
    ]);
    expect(backoffSeconds(20, 5, backoff)).toBe(15 * 60);
    expect(backoffSeconds(1_000_000, 5, backoff)).toBe(15 * 60);
  });

  it('is never negative, never above the maximum, and never shorter after another failure', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000 }),
        fc.integer({ min: 0, max: 100 }),
        fc.integer({ min: 1, max: 60 }),
        fc.integer({ min: 1, max: 86_400 }),
        (failures, free, base, max) => {
          const limits = { ...backoff, baseDelaySeconds: base, maxDelaySeconds: max };
          const wait = backoffSeconds(failures, free, limits);
          expect(wait).toBeGreaterThanOrEqual(0);
          expect(wait).toBeLessThanOrEqual(max);
          expect(Number.isFinite(wait)).toBe(true);
          expect(backoffSeconds(failures + 1, free, limits)).toBeGreaterThanOrEqual(wait);
          if (failures <= free) expect(wait).toBe(0);
        },
      ),
    );
  });
});

describe('the client a failed sign-in is counted for', () => {
  it('is the IPv4 address, however written, and an IPv6 address’s /64', () => {
    expect(clientKey('203.0.113.7')).toBe('203.0.113.7');
    expect(clientKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:0DB8:0001:0002:ffff:1:2:3%eth0')).toBe('2001:db8:1:2::/64');
    expect(clientKey('::1')).toBe('0:0:0:0::/64');
    expect(clientKey('in-process')).toBe('in-process');
  });

  it('gives every address of one /64 one key, and addresses of two /64s two', () => {
    const group = fc.integer({ min: 0, max: 0xffff }).map((value) => value.toString(16));
    const half = fc.array(group, { minLength: 4, maxLength: 4 });
    fc.assert(
      fc.property(half, half, half, (prefix, oneHost, otherHost) => {
        const one = clientKey([...prefix, ...oneHost].join(':'));
        expect(clientKey([...prefix, ...otherHost].join(':'))).toBe(one);
        const otherPrefix = [
          ...prefix.slice(0, 3),
          ((Number.parseInt(prefix[3]!, 16) + 1) % 0x10000).toString(16),
        ];
        expect(clientKey([...otherPrefix, ...oneHost].join(':'))).not.toBe(one);
      }),
    );
    fc.assert(
      fc.property(
        fc.ipV6().filter((address) => !/^::ffff:[\d.]+$/i.test(address)),
        (address) => {
          expect(clientKey(address)).toMatch(/^([0-9a-f]{1,4}:){4}:\/64$/);
        },
      ),
    );
  });
});
