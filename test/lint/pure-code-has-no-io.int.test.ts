import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = resolve(import.meta.dirname, '../..');
const depcruise = join(root, 'node_modules/.bin/depcruise');

/** One probe file per import, so each refusal names the import that caused it. */
const importing = (specifier: string): string =>
  `import * as probe from '${specifier}';\nexport const used = probe;\n`;

/**
 * Writes `files` (path → source) in a scratch tree that resolves packages from Forja's own node_modules, and a
 * configuration that is Forja's own, with the link kept as it is named, so the scratch tree's imports resolve to
 * `node_modules/<package>/…` exactly as the repository's do.
 */
async function writeProbeTree(dir: string, files: Record<string, string>): Promise<void> {
  await symlink(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
  const configuration = {
    extends: join(root, '.dependency-cruiser.cjs'),
    options: { preserveSymlinks: true },
  };
  await writeFile(
    join(dir, '.dependency-cruiser.cjs'),
    `module.exports = ${JSON.stringify(configuration)};\n`,
  );
  for (const [path, source] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), source);
  }
}

type Violation = { from: string; rule: { name: string } };

/** Runs dependency-cruiser with Forja's rules on the scratch tree; returns `file: rule` lines. */
async function violationsOf(dir: string): Promise<string[]> {
  const args = ['src', '--config', '.dependency-cruiser.cjs', '--output-type', 'json'];
  const output = await run(depcruise, args, { cwd: dir, maxBuffer: 16 * 1024 * 1024 }).then(
    ({ stdout }) => stdout,
    (error: { stdout: string }) => error.stdout,
  );
  const result = JSON.parse(output) as { summary: { violations: Violation[] } };
  return result.summary.violations
    .filter((violation) => violation.rule.name.endsWith('-has-no-io'))
    .map((violation) => `${violation.from}: ${violation.rule.name}`)
    .sort();
}

const refusedInPureCode = {
  'fs-promises': 'node:fs/promises',
  'fs-bare': 'fs',
  'fs-promises-bare': 'fs/promises',
  'child-process': 'node:child_process',
  net: 'node:net',
  http: 'node:http',
  https: 'node:https',
  'worker-threads': 'node:worker_threads',
  os: 'node:os',
  crypto: 'node:crypto',
  process: 'node:process',
  pg: 'pg',
  'hono-cookie': 'hono/cookie',
  pglite: '@electric-sql/pglite',
  pino: 'pino',
  'not-installed': 'a-package-that-is-not-installed',
};

describe('pure code has no I/O (.dependency-cruiser.cjs, run by npm run lint)', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'forja-no-io-rule-'));
    const files: Record<string, string> = {
      // The domain: only zod, node:buffer and its own files.
      'src/domain/zod.ts': importing('zod'),
      'src/domain/buffer.ts': importing('node:buffer'),
      'src/domain/local.ts': importing('./zod.ts'),
      'src/domain/type-only-fs.ts': `import type { Dirent } from 'node:fs';\nexport type Entry = Dirent;\n`,
      'src/domain/dynamic-fs.ts': `export const load = () => import('node:fs/promises');\n`,
      'src/domain/reexport-fs.ts': `export { readFile } from 'node:fs/promises';\n`,
      'src/domain/rule.unit.test.ts': importing('node:fs/promises'),
      'src/domain/test-support/fixture.ts': importing('pg'),
      // lib: nothing but node:buffer.
      'src/lib/buffer.ts': importing('node:buffer'),
      'src/lib/zod.ts': importing('zod'),
      'src/lib/fs-promises.ts': importing('node:fs/promises'),
      // The harness: its instruction-file readers do I/O, the rest is pure.
      'src/harness/walk-workspace.ts': importing('node:fs/promises'),
      'src/harness/assemble.ts': importing('node:fs/promises'),
      'src/harness/gitignore.ts': importing('ignore'),
      'src/harness/pg.ts': importing('pg'),
      // Other areas do I/O.
      'src/store/pg.ts': importing('pg'),
    };
    for (const [name, specifier] of Object.entries(refusedInPureCode)) {
      files[`src/domain/${name}.ts`] = importing(specifier);
    }
    await writeProbeTree(dir, files);
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('refuses every built-in with I/O, every package but the allowed ones, in any spelling, and nothing else', async () => {
    const refusedInDomain = [
      ...Object.keys(refusedInPureCode),
      'type-only-fs',
      'dynamic-fs',
      'reexport-fs',
    ].map((name) => `src/domain/${name}.ts: domain-has-no-io`);
    expect(await violationsOf(dir)).toEqual(
      [
        ...refusedInDomain,
        'src/lib/zod.ts: lib-has-no-io',
        'src/lib/fs-promises.ts: lib-has-no-io',
        'src/harness/assemble.ts: harness-has-no-io',
        'src/harness/pg.ts: harness-has-no-io',
      ].sort(),
    );
  });
});
