import { chmod, lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Takes the set-user-id and set-group-id bits off every regular file under `directory` (links never
 * followed) and returns the files changed. Inside the sandbox a command's uid is, outside, the uid of whoever
 * runs Forja: as root, `chmod u+s` on a file it wrote would leave a set-uid-root program on the host. Run
 * after each sandboxed command, when none of its processes is left (the sandbox's pid namespace is gone).
 */
export async function clearSetIdBits(directory: string): Promise<string[]> {
  const changed: string[] = [];
  const visit = async (path: string): Promise<void> => {
    for (const entry of await readdir(path, { withFileTypes: true }).catch(() => [])) {
      const child = join(path, entry.name);
      if (entry.isDirectory()) await visit(child);
      else if (entry.isFile()) {
        const info = await lstat(child).catch(() => null);
        if (info === null || !info.isFile() || (info.mode & 0o6000) === 0) continue;
        await chmod(child, info.mode & 0o1777);
        changed.push(child);
      }
    }
  };
  await visit(directory);
  return changed;
}
