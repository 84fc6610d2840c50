import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkRepositorySource, chosenCommit, withoutCredentials } from './import-repository.ts';

const DATA = '/srv/forja/data';
const SHA = 'a'.repeat(40);

describe('checkRepositorySource', () => {
  it('accepts an absolute path outside the data directory and an http(s) URL', () => {
    expect(checkRepositorySource({ path: '/home/ana/bakery' }, DATA)).toBeNull();
    expect(
      checkRepositorySource({ git: 'https://example.com/a/b.git', ref: 'v1.2' }, DATA),
    ).toBeNull();
    expect(checkRepositorySource({ git: 'http://127.0.0.1:3000/x.git' }, DATA)).toBeNull();
  });

  it('refuses a path inside the data directory, whatever its spelling', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('projects', 'x', '.', 'a/..', 'workspace'), { maxLength: 5 }),
        (parts) => {
          const refusal = checkRepositorySource({ path: [DATA, ...parts].join('/') }, DATA);
          expect(refusal?.field).toBe('source.path');
        },
      ),
    );
  });

  it('refuses every URL scheme but http and https, naming source.git', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('file', 'ext', 'ssh', 'git', 'ftp', 'data', 'javascript', 'fd'),
        fc.webPath(),
        (scheme, path) => {
          expect(checkRepositorySource({ git: `${scheme}://${path}` }, DATA)?.field).toBe(
            'source.git',
          );
          expect(checkRepositorySource({ git: `${scheme}::${path}` }, DATA)?.field).toBe(
            'source.git',
          );
        },
      ),
    );
  });

  it('refuses a ref that could be read as an option or is not a plain name', () => {
    fc.assert(
      fc.property(fc.string(), (tail) => {
        expect(checkRepositorySource({ path: '/r', ref: `-${tail}` }, DATA)?.field).toBe(
          'source.ref',
        );
        expect(checkRepositorySource({ path: '/r', ref: `a..${tail}` }, DATA)?.field).toBe(
          'source.ref',
        );
      }),
    );
    for (const ref of ['', 'a b', 'x.lock', 'x/', 'a@{1}', 'a//b', 'é'])
      expect(checkRepositorySource({ path: '/r', ref }, DATA)?.field).toBe('source.ref');
  });
});

describe('chosenCommit', () => {
  const advertised = `ref: refs/heads/trunk\tHEAD\n${SHA}\tHEAD\n${'b'.repeat(40)}\trefs/heads/feature\n${'c'.repeat(40)}\trefs/tags/v1\n${'d'.repeat(40)}\trefs/tags/v1^{}\n`;
  it('takes HEAD, a branch, or a tag peeled to its commit', () => {
    expect(chosenCommit(advertised, undefined)).toBe(SHA);
    expect(chosenCommit(advertised, 'feature')).toBe('b'.repeat(40));
    expect(chosenCommit(advertised, 'v1')).toBe('d'.repeat(40));
  });
  it('refuses an unknown ref and a repository without commits', () => {
    expect(chosenCommit(advertised, 'nope')).toMatchObject({ field: 'source.ref' });
    expect(chosenCommit('', undefined)).toMatchObject({ field: 'source' });
  });
});

describe('withoutCredentials', () => {
  it('never keeps a password', () => {
    fc.assert(
      fc.property(
        fc.webUrl({ withQueryParameters: true }),
        fc.stringMatching(/^[a-z0-9]{1,12}$/),
        (url, secret) => {
          const parsed = new URL(url);
          parsed.username = 'ana';
          parsed.password = `pw${secret}`;
          expect(withoutCredentials(parsed.toString())).not.toContain(`pw${secret}@`);
        },
      ),
    );
  });
});
