import { join } from 'node:path';
import type { Logger } from 'pino';
import type { ForjaConfig } from '../config/config.ts';
import { createMemory, rebuildRagIndex } from '../memory/index.ts';
import { readWorkspaceDocuments } from '../workspace/index.ts';
import type { Database } from '../store/index.ts';

/**
 * `forja rag rebuild`: embeds again every artifact and agent response of the log and each project's
 * workspace documents (README.md, docs/**\/*.md) with the configured embedder, and replaces the index.
 */
export async function runRagRebuildCommand(
  database: Database,
  config: Pick<ForjaConfig, 'dataDirectory'>,
  env: Readonly<Record<string, string | undefined>>,
  logger: Logger,
  io: { stdout: (text: string) => void; stderr: (text: string) => void },
): Promise<number> {
  const memory = await createMemory({ database, logger, env });
  const outcome = await rebuildRagIndex(database, {
    embedder: memory.embedder,
    index: memory.vectorIndex,
    readDocuments: (projectId) =>
      readWorkspaceDocuments(join(config.dataDirectory, 'projects', projectId, 'workspace')),
  });
  if (!outcome.ok) {
    io.stderr(`forja rag rebuild: ${outcome.reason}\n`);
    return 1;
  }
  io.stdout(
    `RAG index rebuilt: ${outcome.fragments} fragments in ${outcome.chunks} chunks (embedder ${memory.embedder.name}, search ${memory.vectorIndex.method})\n`,
  );
  return 0;
}
