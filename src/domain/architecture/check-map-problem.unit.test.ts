import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkMapProblem } from './check-map-problem.ts';

describe('a check that fails for a reason of the module map', () => {
  it.each([
    [
      2,
      "sh: 1: cd: can't cd to packages/pedidos",
      "the check cannot cd (exit code 2): sh: 1: cd: can't cd to packages/pedidos",
    ],
    [
      127,
      'sh: 1: pytest: not found',
      'a program of the check is not found (exit code 127): sh: 1: pytest: not found',
    ],
    [
      128,
      'fatal: not a git repository: /data/projects/p/workspace/.git/worktrees/pedidos',
      'the check uses git, which is not available inside the sandbox (exit code 128): fatal: not a git repository: /data/projects/p/workspace/.git/worktrees/pedidos',
    ],
    [127, 'env: ‘vitest’: No such file', 'a program of the check is not found (exit code 127)'],
    [126, '', 'a program of the check cannot run (exit code 126)'],
  ])("exit %i with %j is the map's", (exitCode, output, why) => {
    expect(checkMapProblem(exitCode, `some output\n${output}\nmore`)).toBe(why);
  });

  it("is not the map's when the tests themselves fail", () => {
    expect(
      checkMapProblem(1, 'not ok 1 - soma\n  ---\n  error: expected 3\n  ...\n# fail 1'),
    ).toBeNull();
  });

  it('never blames the map for an exit code other than 126 or 127 without a sign of it, and quotes at most one short line', () => {
    const sign =
      /can't cd|cannot cd|No such file or directory|: not found|Permission denied|not a git repository/;
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 255 }),
        fc.string({ maxLength: 2000 }),
        (exitCode, output) => {
          const why = checkMapProblem(exitCode, output);
          if (exitCode !== 126 && exitCode !== 127 && !sign.test(output)) expect(why).toBeNull();
          if (why !== null) {
            expect(why.length).toBeLessThan(400);
            expect(why).not.toContain('\n');
          }
        },
      ),
    );
  });
});
