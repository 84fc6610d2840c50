import { describe, expect, it } from 'vitest';
import { isIgnored, withGitignore } from './gitignore-rules.ts';

describe('gitignore rules', () => {
  it('ignores directories by a directory-only rule and files by a glob', () => {
    const chain = withGitignore([], '', 'node_modules/\n*.log\n');
    expect(isIgnored(chain, 'node_modules', true)).toBe(true);
    expect(isIgnored(chain, 'pkg/node_modules', true)).toBe(true);
    expect(isIgnored(chain, 'node_modules', false)).toBe(false); // a file of that name is not a directory
    expect(isIgnored(chain, 'pkg/debug.log', false)).toBe(true);
    expect(isIgnored(chain, 'pkg/AGENTS.md', false)).toBe(false);
  });

  it('scopes a nested .gitignore to its directory, anchored patterns included', () => {
    const chain = withGitignore(withGitignore([], '', ''), 'pkg', '/build\n');
    expect(isIgnored(chain, 'pkg/build', true)).toBe(true);
    expect(isIgnored(chain, 'pkg/src/build', true)).toBe(false);
  });

  it('lets a deeper .gitignore re-include what a shallower one ignores', () => {
    const chain = withGitignore(withGitignore([], '', 'AGENTS.md\n'), 'docs', '!AGENTS.md\n');
    expect(isIgnored(chain, 'docs/AGENTS.md', false)).toBe(false);
    expect(isIgnored(chain.slice(0, 1), 'docs/AGENTS.md', false)).toBe(true);
  });

  it('keeps what is inside a directory a deeper !build/ re-included, as git does', () => {
    const chain = withGitignore(withGitignore([], '', 'build/\n'), 'a', '!build/\n');
    expect(isIgnored(chain, 'a/build', true)).toBe(false);
    expect(isIgnored(chain, 'a/build/x', true)).toBe(false);
    expect(isIgnored(chain, 'a/build/x/AGENTS.md', false)).toBe(false);
  });

  it('matches case-sensitively, as git does by default', () => {
    expect(isIgnored(withGitignore([], '', 'Vendor/\n'), 'vendor', true)).toBe(false);
  });
});
