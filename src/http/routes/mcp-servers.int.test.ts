import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createForja, type Forja } from '../../composition.ts';
import { loadConfig } from '../../config/config.ts';
import { createScriptedProvider } from '../../gateway/providers/index.ts';
import { testDatabaseEngines } from '../../store/testing/test-databases.ts';
import { requestJson } from '../../testing/forja-harness.ts';

describe.each(testDatabaseEngines())(
  "a project's MCP servers through the API on $name",
  (engine) => {
    let forja: Forja;
    let close: () => Promise<void>;
    let path: string;

    beforeAll(async () => {
      const dataDirectory = await mkdtemp(join(tmpdir(), 'forja-mcp-servers-'));
      const loaded = loadConfig({ FORJA_DATA_DIR: dataDirectory });
      if (!loaded.ok) throw new Error(loaded.error.message);
      const database = await engine.open();
      forja = await createForja(loaded.config, pino({ level: 'silent' }), {
        env: {},
        database,
        provider: createScriptedProvider({ script: { turns: [] } }),
      });
      close = async () => {
        await forja.close();
        await database.close();
        await rm(dataDirectory, { recursive: true, force: true });
      };
      const projectId = (await requestJson(forja, 'POST', '/api/projects', { name: 'Loja' })).body
        .id;
      path = `/api/projects/${projectId}/mcp-servers`;
    });
    afterAll(() => close());

    it('declares servers, replaced whole, and reads them back; none at first', async () => {
      expect(await requestJson(forja, 'GET', path)).toMatchObject({
        status: 200,
        body: { servers: [] },
      });
      const servers = [
        { name: 'docs', transport: 'stdio', command: 'node tools/docs-server.mjs' },
        { name: 'lint-rules', transport: 'stdio', command: 'python3 -m lint_mcp' },
      ];
      expect(await requestJson(forja, 'PUT', path, { servers })).toMatchObject({
        status: 200,
        body: { servers },
      });
      await requestJson(forja, 'PUT', path, { servers: servers.slice(1) });
      expect((await requestJson(forja, 'GET', path)).body).toEqual({ servers: servers.slice(1) });
    });

    it('refuses a declaration it cannot use, naming the field and the rule, and stores nothing', async () => {
      const kept = [{ name: 'kept', transport: 'stdio', command: 'node s.mjs' }];
      await requestJson(forja, 'PUT', path, { servers: kept });
      const stdio = (name: string, command = 'node s.mjs') => ({
        name,
        transport: 'stdio',
        command,
      });
      for (const [body, field, message] of [
        [{ servers: [stdio('Bad Name')] }, 'servers.0.name', /must be 1 to 32 lower-case letters/],
        [{ servers: [stdio('a__b')] }, 'servers.0.name', /no "__"/],
        [{ servers: [stdio('a'), stdio('a')] }, 'servers.1.name', /must be unique/],
        [
          { servers: [{ ...stdio('web'), transport: 'http' }] },
          'servers.0.transport',
          /must be "stdio"/,
        ],
        [{ servers: [stdio('a', '')] }, 'servers.0.command', /must not be empty/],
        [{ servers: [{ ...stdio('a'), env: {} }] }, 'servers.0.env', /Unknown field/],
        [{}, 'servers', /servers/],
      ] as const) {
        const answer = await requestJson(forja, 'PUT', path, body);
        expect(answer.status).toBe(400);
        expect(answer.body.error).toMatchObject({ field, message: expect.stringMatching(message) });
      }
      expect((await requestJson(forja, 'GET', path)).body).toEqual({ servers: kept });
    });

    it('answers 404 for a project that does not exist', async () => {
      const missing = '/api/projects/00000000-0000-4000-8000-000000000000/mcp-servers';
      expect((await requestJson(forja, 'GET', missing)).status).toBe(404);
      expect((await requestJson(forja, 'PUT', missing, { servers: [] })).status).toBe(404);
    });
  },
);
