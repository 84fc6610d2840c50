import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { createForja } from '../../composition.ts';
import { loadConfig } from '../../config/config.ts';
import {
  createScriptedProvider,
  type ModelRequest,
  type ScriptInput,
} from '../../gateway/providers/index.ts';
import { recordingRequests } from '../../gateway/providers/testing/index.ts';
import type { Database } from '../../store/index.ts';
import type { TestDatabaseEngine } from '../../store/testing/test-databases.ts';

/**
 * A Forja of its own data directory and database playing `script`, with `settings` (e.g.
 * `FORJA_MAX_PARALLEL_TURNS`) added to its configuration; `close` removes everything. Given `database` (a
 * restart: a second Forja on the first one's database), it uses that one and leaves it open. Given `requests`,
 * every request the model is sent is pushed there (what a test reads of what an agent was not told).
 */
export async function startLine(
  engine: TestDatabaseEngine,
  script: ScriptInput,
  settings: Record<string, string> = {},
  options: { database?: Database; env?: Record<string, string>; requests?: ModelRequest[] } = {},
) {
  const dataDirectory = await mkdtemp(join(tmpdir(), 'forja-line-'));
  const loaded = loadConfig({ ...settings, FORJA_DATA_DIR: dataDirectory });
  if (!loaded.ok) throw new Error(loaded.error.message);
  const database = options.database ?? (await engine.open());
  const provider = createScriptedProvider({ script });
  const forja = await createForja(loaded.config, pino({ level: 'silent' }), {
    env: options.env ?? {},
    database,
    provider:
      options.requests === undefined ? provider : recordingRequests(provider, options.requests),
  });
  return {
    forja,
    provider,
    dataDirectory,
    close: async () => (
      await forja.close(),
      options.database === undefined && (await database.close()),
      await rm(dataDirectory, { recursive: true, force: true })
    ),
  };
}
