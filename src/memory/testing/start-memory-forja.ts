import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { createForja, type Forja, type ForjaOptions } from '../../composition.ts';
import { loadConfig } from '../../config/config.ts';
import {
  createScriptedProvider,
  type ModelProvider,
  type ModelRequest,
  type ScriptInput,
} from '../../gateway/providers/index.ts';
import type { TestDatabaseEngine } from '../../store/testing/test-databases.ts';

/**
 * Test support: a Forja on a fresh test database with the given environment (feature flags included), a data
 * directory of its own, a scripted model, and the memory workers stopped unless asked for — the test drives
 * the projector's and the indexer's cycles itself.
 */
export async function startMemoryForja(
  engine: TestDatabaseEngine,
  options: {
    env?: Record<string, string>;
    script?: ScriptInput;
    memory?: ForjaOptions['memory'];
  } = {},
): Promise<{
  forja: Forja;
  dataDirectory: string;
  provider: ReturnType<typeof createScriptedProvider>;
  requests: ModelRequest[];
}> {
  const dataDirectory = await mkdtemp(path.join(tmpdir(), 'forja-memory-'));
  const loaded = loadConfig({ ...options.env, FORJA_DATA_DIR: dataDirectory });
  if (!loaded.ok) throw new Error(loaded.error.message);
  const database = await engine.open();
  const provider = createScriptedProvider({ script: options.script ?? { turns: [] } });
  // Every request the model is sent, so a test can read the system prompt an agent was given.
  const requests: ModelRequest[] = [];
  const recording: ModelProvider = {
    name: provider.name,
    model: provider.model,
    stream: (request, streamOptions) => (
      requests.push(request), provider.stream(request, streamOptions)
    ),
  };
  const forja = await createForja(loaded.config, pino({ level: 'silent' }), {
    env: options.env ?? {},
    database,
    provider: recording,
    memory: { workers: false, ...options.memory },
  });
  return {
    forja: {
      ...forja,
      close: async () => {
        await forja.close();
        await database.close();
        await rm(dataDirectory, { recursive: true, force: true });
      },
    },
    dataDirectory,
    provider,
    requests,
  };
}
