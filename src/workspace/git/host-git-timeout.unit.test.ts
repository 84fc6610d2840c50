import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readGitTimeout } from './host-git.ts';

describe('readGitTimeout', () => {
  it('takes 1 to 3600 seconds and refuses anything else, naming the variable', () => {
    expect(readGitTimeout({})).toEqual({ ok: true, timeoutMs: 300_000 });
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 3600 }), (seconds) => {
        expect(readGitTimeout({ FORJA_GIT_TIMEOUT_SECONDS: String(seconds) })).toEqual({
          ok: true,
          timeoutMs: seconds * 1000,
        });
      }),
    );
    for (const value of ['0', '3601', '1.5', 'soon'])
      expect(readGitTimeout({ FORJA_GIT_TIMEOUT_SECONDS: value })).toMatchObject({
        ok: false,
        variable: 'FORJA_GIT_TIMEOUT_SECONDS',
        message: expect.stringContaining('a whole number from 1 to 3600'),
      });
  });
});
