import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const WEB_DIRECTORY = fileURLToPath(new URL('../../../web', import.meta.url));
const BUILT_INDEX = join(WEB_DIRECTORY, 'dist', 'index.html');
/** Test files run in parallel processes; one builds while the others wait (mkdir is atomic). */
const LOCK = join(
  tmpdir(),
  `forja-web-build-${createHash('sha256').update(WEB_DIRECTORY).digest('hex').slice(0, 12)}.lock`,
);
const STALE_LOCK_MS = 5 * 60_000;

/**
 * Builds the web UI into web/dist (what `forja serve` serves) when it is missing or older than its sources,
 * so a fresh clone, or a change to the UI, is tested as built, not as it was last built.
 */
export async function ensureWebBuilt(): Promise<void> {
  if (isFresh()) return;
  await withLock(async () => {
    if (isFresh()) return;
    // Vitest sets NODE_ENV=test, which would make Vite bundle React's development build.
    const nodeEnv = process.env['NODE_ENV'];
    process.env['NODE_ENV'] = 'production';
    try {
      await build({
        configFile: join(WEB_DIRECTORY, 'vite.config.ts'),
        root: WEB_DIRECTORY,
        logLevel: 'warn',
      });
    } finally {
      if (nodeEnv === undefined) delete process.env['NODE_ENV'];
      else process.env['NODE_ENV'] = nodeEnv;
    }
  });
}

function isFresh(): boolean {
  return existsSync(BUILT_INDEX) && newestSource() <= statSync(BUILT_INDEX).mtimeMs;
}

async function withLock(work: () => Promise<void>): Promise<void> {
  for (;;) {
    try {
      mkdirSync(LOCK);
      break;
    } catch {
      if (
        Date.now() - (statSync(LOCK, { throwIfNoEntry: false })?.mtimeMs ?? Date.now()) >
        STALE_LOCK_MS
      )
        rmSync(LOCK, { recursive: true, force: true });
      await sleep(200);
    }
  }
  try {
    await work();
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}

function newestSource(): number {
  const sources = ['index.html', 'vite.config.ts', 'src', 'public'].map((name) =>
    join(WEB_DIRECTORY, name),
  );
  return Math.max(0, ...sources.filter((path) => existsSync(path)).map(newestIn));
}

function newestIn(path: string): number {
  const stats = statSync(path);
  if (!stats.isDirectory()) return stats.mtimeMs;
  return Math.max(stats.mtimeMs, ...readdirSync(path).map((name) => newestIn(join(path, name))));
}
