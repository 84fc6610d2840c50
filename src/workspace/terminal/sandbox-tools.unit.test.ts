import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseSandboxTools, SANDBOX_TOOLS, SANDBOX_TOOLS_COMMAND } from './sandbox-tools.ts';

describe('the tools found in the sandbox', () => {
  it("reads each tool's version, and a missing or failing tool as absent", () => {
    expect(
      parseSandboxTools('node=v24.1.0\nnpm=11.3.0\npython3=sh: 1: python3: not found\n').versions,
    ).toEqual({ node: 'v24.1.0', npm: '11.3.0', python3: null });
    expect(parseSandboxTools('python3=Python 3.11.2\nnode=\n').versions).toEqual({
      node: null,
      npm: null,
      python3: '3.11.2',
    });
  });

  it('asks every tool once, on one line of its own', () => {
    for (const tool of SANDBOX_TOOLS) expect(SANDBOX_TOOLS_COMMAND).toContain(`'${tool}=%s\\n'`);
  });

  it('never takes anything but a short version for a tool, whatever the output', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 400 }), (output) => {
        const { versions } = parseSandboxTools(output);
        for (const version of Object.values(versions))
          if (version !== null) {
            expect(version.length).toBeLessThanOrEqual(40);
            expect(version).toMatch(/\d+\.\d+/);
            expect(version).not.toMatch(/\s\s|\n/);
          }
      }),
    );
  });
});
