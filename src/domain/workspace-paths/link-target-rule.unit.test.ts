import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isInside } from './is-inside.ts';
import { isForjaOwnedPath, linkTargetEscape } from './link-target-rule.ts';
import { normalizeAbsolutePath } from './normalize-absolute-path.ts';

describe('linkTargetEscape', () => {
  it.each([
    { link: 'a', target: 'b.txt', escapes: false },
    { link: 'src/a', target: '../README.md', escapes: false },
    { link: 'src/deep/a', target: '../../lib/./x', escapes: false },
    { link: 'src/a', target: '.', escapes: false },
    { link: 'README.md', target: '/etc/shadow', escapes: true },
    { link: 'README.md', target: '../secret', escapes: true },
    { link: 'src/a', target: '../../x', escapes: true },
    { link: 'src/a', target: 'x/../..', escapes: true },
    { link: 'src/a', target: 'x/../y', escapes: true },
    { link: 'a', target: '', escapes: true },
    { link: 'a', target: '..\\x', escapes: true },
  ])('$link → $target escapes: $escapes', ({ link, target, escapes }) => {
    expect(linkTargetEscape(link, target) !== null).toBe(escapes);
  });

  it('names the target and the rule', () => {
    expect(linkTargetEscape('README.md', '/root/.env')).toBe(
      'its target "/root/.env" is an absolute path',
    );
    expect(linkTargetEscape('README.md', '../x')).toMatch(/climbs 1 directories from README\.md/);
  });

  it('accepts only targets that resolve inside the repository, read as plain paths', () => {
    const segment = fc.constantFrom('..', '.', 'a', 'b', '');
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('a', 'b', 'c'), { minLength: 1, maxLength: 4 }),
        fc.array(segment, { maxLength: 6 }),
        (linkSegments, targetSegments) => {
          const link = linkSegments.join('/');
          const target = targetSegments.join('/');
          if (linkTargetEscape(link, target) !== null) return;
          const directory = linkSegments.slice(0, -1).join('/');
          const resolved = normalizeAbsolutePath(`/r/${directory}/${target}`);
          expect(resolved === '/r' || (resolved !== null && isInside('/r', resolved))).toBe(true);
        },
      ),
    );
  });
});

describe('isForjaOwnedPath', () => {
  it('is docs/ and what is under it, nothing else', () => {
    expect(isForjaOwnedPath('docs')).toBe(true);
    expect(isForjaOwnedPath('docs/project-image.md')).toBe(true);
    expect(isForjaOwnedPath('docs2/a.md')).toBe(false);
    expect(isForjaOwnedPath('src/docs/a.md')).toBe(false);
  });
});
