import { constants } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { openFinal, visitFilesBeneath, walkBeneath } from './beneath.ts';

const MAX_DOCUMENT_BYTES = 256 * 1024;

/** A document of a workspace: its path from the root and its text. */
export interface WorkspaceDocument {
  path: string;
  content: string;
}

/**
 * A project's documents for the RAG index: `README.md` and every `.md` file under `docs/` of its workspace.
 * Read through descriptors without following any link (`walkBeneath`, `visitFilesBeneath`; ADR 0300): a
 * README.md or a docs/ that is a symbolic link is left out, and so is a file with more than one hard link or
 * over 256 KiB. A workspace that does not exist has none.
 */
export async function readWorkspaceDocuments(
  workspaceDirectory: string,
): Promise<WorkspaceDocument[]> {
  const found: WorkspaceDocument[] = [];
  const keep = async (handle: FileHandle, path: string) => {
    const info = await handle.stat();
    if (info.isFile() && info.nlink === 1 && info.size <= MAX_DOCUMENT_BYTES)
      found.push({ path, content: await handle.readFile('utf8') });
    return false;
  };
  await openedBeneath(workspaceDirectory, 'README.md', (handle) => keep(handle, 'README.md'));
  await openedBeneath(workspaceDirectory, 'docs', async (handle) => {
    if ((await handle.stat()).isDirectory())
      await visitFilesBeneath(handle, 'docs', (file, path) =>
        path.endsWith('.md') ? keep(file, path) : Promise.resolve(false),
      );
    return false;
  });
  return found;
}

/** Runs `use` on the entry at `path` opened without following links; nothing when it cannot be opened. */
async function openedBeneath(
  root: string,
  path: string,
  use: (handle: FileHandle) => Promise<boolean>,
): Promise<void> {
  const walk = await walkBeneath(root, path, { create: false }).catch(() => null);
  if (walk === null || !walk.ok) return;
  try {
    const opened = await openFinal(walk, constants.O_RDONLY, { directory: true });
    if (!opened.ok) return;
    try {
      await use(opened.handle);
    } finally {
      await opened.handle.close();
    }
  } finally {
    await walk.close();
  }
}
