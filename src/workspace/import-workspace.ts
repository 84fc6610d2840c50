import { randomUUID } from 'node:crypto';
import { realpath, rm } from 'node:fs/promises';
import {
  checkRepositorySource,
  type ImportRefusal,
  importRepository,
  type RepositorySource,
} from './git/import-repository.ts';
import { projectDirectory, workspaceDirectory } from './workspace-layout.ts';

export type ImportedWorkspace<T> = { ok: true; stored: T } | { ok: false; refusal: ImportRefusal };

/**
 * Another way a project's repository is made (ADR 0355): for a new project id, its repository is cloned from
 * `source` (`importRepository`), and only then `store(projectId)` records the project. A refusal, a failed
 * clone or a failed `store` leaves nothing: the project's directory is removed, and `store` (a transaction)
 * either ran whole or not at all.
 */
export async function importWorkspace<T>(
  dataDirectory: string,
  source: RepositorySource,
  store: (projectId: string) => Promise<T>,
): Promise<ImportedWorkspace<T>> {
  const shape = checkRepositorySource(source, dataDirectory);
  if (shape !== null) return { ok: false, refusal: shape };
  // A path is checked again once its links are resolved, and the resolved path is the one git reads.
  if ('path' in source) {
    const real = await realpath(source.path).catch(() => null);
    if (real === null)
      return {
        ok: false,
        refusal: {
          field: 'source.path',
          message: `${source.path} does not exist or cannot be read.`,
        },
      };
    const resolved = { ...source, path: real };
    const linked = checkRepositorySource(
      resolved,
      await realpath(dataDirectory).catch(() => dataDirectory),
    );
    if (linked !== null) return { ok: false, refusal: linked };
    source = resolved;
  }
  const projectId = randomUUID();
  const directory = projectDirectory(dataDirectory, projectId);
  try {
    const refusal = await importRepository(workspaceDirectory(dataDirectory, projectId), source);
    if (refusal !== null) {
      await rm(directory, { recursive: true, force: true });
      return { ok: false, refusal };
    }
    return { ok: true, stored: await store(projectId) };
  } catch (error) {
    await rm(directory, { recursive: true, force: true });
    throw error;
  }
}
