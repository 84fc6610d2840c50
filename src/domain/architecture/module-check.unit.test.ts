import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { defaultCheckSkipped, moduleCheck } from './module-check.ts';
import { moduleMapSchema } from './module-map-schema.ts';

describe('moduleCheck', () => {
  it("is the map's check when declared, else the default of a known stack (skipped without its marker file), else none", () => {
    expect(moduleCheck({ stack: 'TypeScript', check: 'node --test' })).toEqual({
      command: 'node --test',
      source: 'declared',
    });
    expect(moduleCheck({ stack: 'Python 3' })).toEqual({
      command:
        'if [ -f pyproject.toml ]; then python3 -m pytest -q; else echo "no pyproject.toml: the default check (python3 -m pytest -q) was skipped"; fi',
      source: 'default',
    });
    expect(moduleCheck({ stack: 'TypeScript + Vite' })?.command).toContain(
      'npx --no-install tsc --noEmit',
    );
    expect(moduleCheck({ stack: 'Go' })?.command).toContain('go test ./...');
    expect(moduleCheck({ stack: 'COBOL' })).toBeNull();
  });

  it('refuses an empty or too long check in the map, naming the field', () => {
    const map = (check: string) =>
      moduleMapSchema.safeParse({
        version: 1,
        modules: [{ name: 'a', stack: 'Go', responsibility: 'r', check }],
      });
    expect(map('go vet ./...').success).toBe(true);
    expect(JSON.stringify(map('  ').error?.issues)).toContain('check must not be empty');
    expect(JSON.stringify(map('x'.repeat(1001)).error?.issues)).toContain(
      'check must be at most 1000 characters',
    );
  });
});

describe('defaultCheckSkipped', () => {
  it('is true for the line a default check prints when its marker file is missing, and for nothing else', () => {
    for (const stack of ['TypeScript', 'Node', 'Python', 'Go', 'Rust', 'Elixir']) {
      const { command } = moduleCheck({ stack })!;
      const printed = /echo "(.+)"; fi$/.exec(command)![1]!;
      expect(defaultCheckSkipped(`${printed}\n`)).toBe(true);
      expect(defaultCheckSkipped(`ok 1 - works\n# pass 1\n`)).toBe(false);
    }
    fc.assert(
      fc.property(
        fc.string().filter((output) => !output.includes('was skipped')),
        (output) => !defaultCheckSkipped(output),
      ),
    );
  });
});
