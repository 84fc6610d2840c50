import { describe, expect, it } from 'vitest';
import { moduleCheck } from './module-check.ts';
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
