import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { createForja } from '../../composition.ts';
import { loadConfig } from '../../config/config.ts';
import { createScriptedProvider, type ScriptInput } from '../../gateway/providers/index.ts';
import type { TestDatabaseEngine } from '../../store/testing/test-databases.ts';

/**
 * A Forja of its own data directory and database playing `script`, with `settings` (e.g.
 * `FORJA_MAX_PARALLEL_TURNS`) added to its configuration; `close` removes everything.
 */
export async function startLine(
  engine: TestDatabaseEngine,
  script: ScriptInput,
  settings: Record<string, string> = {},
) {
  const dataDirectory = await mkdtemp(join(tmpdir(), 'forja-line-'));
  const loaded = loadConfig({ ...settings, FORJA_DATA_DIR: dataDirectory });
  if (!loaded.ok) throw new Error(loaded.error.message);
  const database = await engine.open();
  const provider = createScriptedProvider({ script });
  const forja = await createForja(loaded.config, pino({ level: 'silent' }), {
    env: {},
    database,
    provider,
  });
  return {
    forja,
    provider,
    dataDirectory,
    close: async () => (
      await forja.close(),
      await database.close(),
      await rm(dataDirectory, { recursive: true, force: true })
    ),
  };
}
