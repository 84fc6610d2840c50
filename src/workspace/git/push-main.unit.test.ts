import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  boundedGitWords,
  checkPushBranch,
  checkRemoteName,
  credentialEnvironment,
  credentialVariables,
  MAX_PUSH_MESSAGE_CHARS,
  pushCredentials,
  remoteTarget,
} from './push-main.ts';

describe('the rules of a remote and a push', () => {
  it('accepts http(s) URLs without credentials, file URLs and paths outside the data directory', () => {
    expect(remoteTarget('https://example.com/a.git', '/data')).toEqual({
      kind: 'http',
      url: 'https://example.com/a.git',
    });
    expect(remoteTarget('file:///srv/a.git', '/data')).toEqual({
      kind: 'path',
      path: '/srv/a.git',
    });
    expect(remoteTarget('/srv/../srv/a.git', '/data')).toEqual({
      kind: 'path',
      path: '/srv/a.git',
    });
  });

  it('refuses any user or password in a URL, naming the url field and never repeating it', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[a-z0-9]{1,12}$/),
        fc.stringMatching(/^[a-z0-9]{0,12}$/),
        (user, password) => {
          const url = `https://${user}${password === '' ? '' : `:${password}`}@example.com/a.git`;
          const refusal = remoteTarget(url, '/data');
          expect(refusal).toMatchObject({ field: 'url' });
          expect('message' in refusal && refusal.message).not.toContain(url);
        },
      ),
    );
  });

  it('refuses every other transport and any path inside the data directory', () => {
    for (const url of ['ssh://h/a.git', 'git://h/a.git', 'ext::sh', 'h:a.git', 'a.git', ''])
      expect(remoteTarget(url, '/data')).toMatchObject({ field: 'url' });
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z0-9/]{0,30}$/), (tail) => {
        expect(remoteTarget(`/data/${tail}`, '/data')).toMatchObject({ field: 'url' });
        expect(remoteTarget(`file:///data/${tail}`, '/data')).toMatchObject({ field: 'url' });
      }),
    );
  });

  it('names remotes as environment variables can, and branches as git can', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z][a-z0-9_-]{0,39}$/), (name) => {
        expect(checkRemoteName(name)).toBeNull();
        expect(credentialVariables(name).token).toMatch(/^FORJA_GIT_TOKEN_[A-Z][A-Z0-9_]*$/);
      }),
    );
    for (const name of ['', 'A', '1a', 'a b', 'a'.repeat(41), 'a.b'])
      expect(checkRemoteName(name)).toMatchObject({ field: 'name' });
    for (const branch of ['-f', 'a..b', 'a/', 'a.lock', 'a b', '@{1}'])
      expect(checkPushBranch(branch)).toMatchObject({ field: 'branch' });
    expect(checkPushBranch('release/1.0')).toBeNull();
  });

  it('reads the token from the environment only when set, and puts it in a header, not an argument', () => {
    expect(pushCredentials({}, 'origin')).toBeNull();
    expect(pushCredentials({ FORJA_GIT_TOKEN_ORIGIN: '' }, 'origin')).toBeNull();
    expect(pushCredentials({ FORJA_GIT_TOKEN_MY_HOST: 't' }, 'my-host')).toEqual({
      user: 'forja',
      token: 't',
    });
    expect(
      pushCredentials({ FORJA_GIT_TOKEN_ORIGIN: 't', FORJA_GIT_USER_ORIGIN: 'oauth2' }, 'origin'),
    ).toEqual({ user: 'oauth2', token: 't' });
    expect(credentialEnvironment({ user: 'u', token: 't' })).toEqual({
      GIT_CONFIG_COUNT: '1',
      GIT_CONFIG_KEY_0: 'http.extraHeader',
      GIT_CONFIG_VALUE_0: `Authorization: Basic ${Buffer.from('u:t').toString('base64')}`,
    });
  });

  it("bounds git's words and takes a token out of them", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 5000 }), (said) => {
        const words = boundedGitWords(`${said} tok3n-secret ${said}`, 'tok3n-secret');
        expect(words.length).toBeLessThanOrEqual(MAX_PUSH_MESSAGE_CHARS + 1);
        expect(words).not.toContain('tok3n-secret');
      }),
    );
  });
});
