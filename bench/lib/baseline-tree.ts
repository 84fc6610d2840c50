import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPOSITORY = fileURLToPath(new URL('../../', import.meta.url));

/**
 * The code as it was at `revision` (`src`, `bin`, `package.json`), extracted with `git archive` into a temporary
 * directory whose `node_modules` is this tree's: a benchmark imports its modules, or starts its `forja serve`,
 * beside today's in the same run. Extracted once per process.
 */
const extracted = new Map<string, string>();

export function baselineTree(revision: string): string {
  const known = extracted.get(revision);
  if (known !== undefined) return known;
  const directory = mkdtempSync(join(tmpdir(), 'forja-baseline-'));
  mkdirSync(directory, { recursive: true });
  const archive = execFileSync('git', ['archive', revision, 'src', 'bin', 'package.json'], {
    cwd: REPOSITORY,
    maxBuffer: 256 * 1024 * 1024,
  });
  execFileSync('tar', ['-x', '-C', directory], { input: archive });
  const modules = join(REPOSITORY, 'node_modules');
  if (existsSync(modules)) symlinkSync(modules, join(directory, 'node_modules'));
  extracted.set(revision, directory);
  return directory;
}
