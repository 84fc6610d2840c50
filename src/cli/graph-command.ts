import { createPostgresGraphStore, rebuildGraph } from '../memory/index.ts';
import type { Database } from '../store/index.ts';

/**
 * `forja graph rebuild`: empties the graph projection (seeded templates stay) and replays the event log
 * through the same write use cases the projector calls. Exit code 1 when the graph is unavailable.
 */
export async function runGraphRebuildCommand(
  database: Database,
  io: { stdout: (text: string) => void; stderr: (text: string) => void },
): Promise<number> {
  const outcome = await rebuildGraph(database, createPostgresGraphStore);
  if (!outcome.ok) {
    io.stderr(`forja graph rebuild: ${outcome.reason}\n`);
    return 1;
  }
  io.stdout(
    `graph rebuilt from ${outcome.events} events: ${outcome.recorded} recorded, ${outcome.skipped} skipped\n`,
  );
  return 0;
}
