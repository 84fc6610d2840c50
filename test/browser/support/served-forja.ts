import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { createForja, type Forja } from '../../../src/composition.ts';
import { loadConfig } from '../../../src/config/config.ts';
import type { ModelProvider } from '../../../src/gateway/providers/index.ts';
import { listen, type ListeningServer } from '../../../src/http/listen.ts';

export interface ServedForja {
  forja: Forja;
  url: string;
  /** FORJA_DATA_DIR of this Forja: the projects' repositories are under it. */
  dataDirectory: string;
  /** Stops the HTTP listener, dropping open connections (the live streams); Forja itself keeps running. */
  stopListening(): Promise<void>;
  /** Listens again on the same port, as a restarted server would. */
  startListening(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A real Forja on 127.0.0.1 (a free port), on embedded PGlite in a temporary data directory, with the given
 * model provider, or the one `env` configures (none for `{}`) when `provider` is absent.
 */
export async function startServedForja(
  provider?: ModelProvider,
  env: NodeJS.ProcessEnv = {},
): Promise<ServedForja> {
  const dataDirectory = mkdtempSync(join(tmpdir(), 'forja-browser-'));
  const loaded = loadConfig({ FORJA_DATA_DIR: dataDirectory, LOG_LEVEL: 'silent' });
  if (!loaded.ok) throw new Error(loaded.error.message);
  const forja = await createForja(loaded.config, pino({ level: 'silent' }), {
    env,
    ...(provider ? { provider } : {}),
  });
  let server: ListeningServer | null = await listen(forja.app.fetch, {
    host: '127.0.0.1',
    port: 0,
    shutdownGraceMs: 100,
  });
  const url = server.url;
  const port = Number(new URL(url).port);
  return {
    forja,
    url,
    dataDirectory,
    async stopListening() {
      await server?.close();
      server = null;
    },
    async startListening() {
      server ??= await listen(forja.app.fetch, { host: '127.0.0.1', port, shutdownGraceMs: 100 });
    },
    async close() {
      await server?.close();
      await forja.close();
      rmSync(dataDirectory, { recursive: true, force: true });
    },
  };
}
