import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';

const MAX_DOCUMENT_BYTES = 256 * 1024;

/**
 * A project's documents for the RAG index: `README.md` and every `.md` file under `docs/` of its
 * workspace (no symlinks followed, files over 256 KiB left out). A workspace that does not exist has none.
 */
export async function readWorkspaceDocuments(
  workspaceDirectory: string,
): Promise<Array<{ path: string; content: string }>> {
  const found: Array<{ path: string; content: string }> = [];
  const readIfSmall = async (relative: string) => {
    const absolute = path.join(workspaceDirectory, relative);
    const info = await stat(absolute).catch(() => null);
    if (info === null || !info.isFile() || info.size > MAX_DOCUMENT_BYTES) return;
    found.push({
      path: relative.split(path.sep).join('/'),
      content: await readFile(absolute, 'utf8'),
    });
  };
  await readIfSmall('README.md');
  const walk = async (relative: string): Promise<void> => {
    const entries = await readdir(path.join(workspaceDirectory, relative), {
      withFileTypes: true,
    }).catch(() => []);
    for (const entry of entries.sort((left, right) => left.name.localeCompare(right.name))) {
      const child = path.join(relative, entry.name);
      if (entry.isDirectory()) await walk(child);
      else if (entry.isFile() && entry.name.endsWith('.md')) await readIfSmall(child);
    }
  };
  await walk('docs');
  return found;
}
