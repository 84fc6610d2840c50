import { basename } from 'node:path';

const counts = new Map<string, number>();

/** Counts one process started by Forja, by its program's name (`git`, `bwrap`, …). */
export function countSpawn(file: string): void {
  const name = basename(file);
  counts.set(name, (counts.get(name) ?? 0) + 1);
}

/**
 * How many processes this process has started since it began, by program name: what the line-overhead
 * benchmark and the process-count test read (a difference of two readings is one piece of work's count).
 */
export function spawnCounts(): Record<string, number> {
  return Object.fromEntries(counts);
}
