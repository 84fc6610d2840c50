import { readdirSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '../..');

/** Tests and their support: they may build raw events and long tables on purpose. */
const TEST_CODE = /(\.test\.tsx?$|\/testing\/|\/test-support\/|\/__fixtures__\/)/;

/** Forja's production sources under `src/` and `web/src/` (relative to the repository), tests left out. */
export function productionSources(): string[] {
  const walk = (directory: string): string[] =>
    readdirSync(directory).flatMap((name) => {
      const path = join(directory, name);
      if (statSync(path).isDirectory()) return walk(path);
      return /\.tsx?$/.test(name) ? [relative(ROOT, path)] : [];
    });
  return [...walk(join(ROOT, 'src')), ...walk(join(ROOT, 'web/src'))].filter(
    (path) => !TEST_CODE.test(path),
  );
}
