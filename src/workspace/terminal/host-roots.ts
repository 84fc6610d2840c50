import { lstat, readlink } from 'node:fs/promises';
import { READ_ONLY_ROOTS, type HostRootEntry } from './sandbox-arguments.ts';

/** The host's top-level system directories as the sandbox must recreate them (Debian links /bin to usr/bin). */
export async function readHostRoots(): Promise<HostRootEntry[]> {
  const entries: HostRootEntry[] = [];
  for (const path of READ_ONLY_ROOTS) {
    const info = await lstat(path).catch(() => null);
    if (info === null) continue;
    if (info.isSymbolicLink())
      entries.push({ path, kind: 'symlink', target: await readlink(path) });
    else if (info.isDirectory()) entries.push({ path, kind: 'directory' });
  }
  return entries;
}
