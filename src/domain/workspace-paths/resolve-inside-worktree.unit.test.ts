import { posix } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isInside } from './is-inside.ts';
import { resolveInsideWorktree } from './resolve-inside-worktree.ts';

const root = '/data/projects/p1/worktrees/board-engine';

describe('resolveInsideWorktree', () => {
  it.each([
    { requested: 'src/index.ts', relativePath: 'src/index.ts' },
    { requested: './src//index.ts', relativePath: 'src/index.ts' },
    { requested: 'src/../lib/a.ts', relativePath: 'lib/a.ts' },
    { requested: 'src/', relativePath: 'src' },
    { requested: '.', relativePath: '.' },
    { requested: '...', relativePath: '...' },
    { requested: '.github/workflows/ci.yml', relativePath: '.github/workflows/ci.yml' },
    { requested: 'a b/~user', relativePath: 'a b/~user' },
  ])('resolves $requested inside the worktree', ({ requested, relativePath }) => {
    expect(resolveInsideWorktree(root, requested)).toEqual({
      ok: true,
      relativePath,
      absolutePath: relativePath === '.' ? root : `${root}/${relativePath}`,
    });
  });

  it.each(
    [
      { requested: '', code: 'empty_path' },
      { requested: '   ', code: 'empty_path' },
      { requested: 'src/a\0.ts', code: 'nul_byte' },
      { requested: '/etc/passwd', code: 'absolute_path' },
      { requested: `${root}/src/a.ts`, code: 'absolute_path' },
      { requested: 'C:/Windows', code: 'absolute_path' },
      { requested: '..\\..\\etc\\passwd', code: 'backslash' },
      { requested: '../other-module/src/api.ts', code: 'escapes_worktree' },
      { requested: 'src/../../x', code: 'escapes_worktree' },
      { requested: '../board-engine/src/a.ts', code: 'escapes_worktree' },
      { requested: '.git/hooks/pre-commit', code: 'git_metadata' },
      { requested: '.git', code: 'git_metadata' },
      { requested: 'sub/.GIT/config', code: 'git_metadata' },
      { requested: 'a/'.repeat(2049), code: 'too_long' },
    ].map((row) => ({ ...row, label: JSON.stringify(row.requested).slice(0, 40) })),
  )('refuses $code: $label', ({ requested, code }) => {
    const result = resolveInsideWorktree(root, requested);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.code).toBe(code);
    expect(result.reason).toMatch(/^path ".*" refused: /);
  });

  it('refuses a relative worktree root as a caller bug', () => {
    expect(() => resolveInsideWorktree('worktrees/x', 'a.ts')).toThrow(/absolute/);
  });

  const segment = fc.constantFrom('..', '.', '', 'a', 'b', 'src', '...', '..a', '.hidden', 'x y');
  const requestedPath = fc
    .tuple(fc.boolean(), fc.array(segment, { maxLength: 12 }))
    .map(([leadingSlash, segments]) => `${leadingSlash ? '/' : ''}${segments.join('/')}`);

  it('never yields a path outside the worktree', () => {
    fc.assert(
      fc.property(requestedPath, (requested) => {
        const result = resolveInsideWorktree(root, requested);
        if (!result.ok) return true;
        expect(isInside(root, result.absolutePath)).toBe(true);
        expect(
          result.absolutePath.split('/').filter((part) => part === '.' || part === '..'),
        ).toEqual([]);
        expect(posix.resolve(root, requested)).toBe(result.absolutePath);
        return true;
      }),
    );
  });

  it('refuses exactly the relative paths that climb above the root at some point', () => {
    fc.assert(
      fc.property(requestedPath, (requested) => {
        if (requested.startsWith('/') || requested.trim() === '') return true;
        let depth = 0;
        let climbs = false;
        for (const part of requested.split('/')) {
          if (part === '..') depth -= 1;
          else if (part !== '' && part !== '.') depth += 1;
          if (depth < 0) climbs = true;
        }
        const result = resolveInsideWorktree(root, requested);
        expect(result.ok ? null : result.code).toBe(climbs ? 'escapes_worktree' : null);
        return true;
      }),
    );
  });

  it('refuses every absolute path', () => {
    fc.assert(
      fc.property(
        requestedPath,
        (requested) => !requested.startsWith('/') || !resolveInsideWorktree(root, requested).ok,
      ),
    );
  });
});
