import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import {
  installMcpFixture,
  MCP_FIXTURE_COMMAND,
} from '../agents/dev/test-support/install-mcp-fixture.ts';
import { createForja } from '../composition.ts';
import { loadConfig } from '../config/config.ts';
import { createScriptedProvider, type ScriptInput } from '../gateway/providers/index.ts';
import { testDatabaseEngines } from '../store/testing/test-databases.ts';
import { requestJson } from '../testing/forja-harness.ts';
import {
  createProjectWorkspaces,
  createTerminalRunner,
  DEFAULT_TERMINAL_SETTINGS,
} from '../workspace/index.ts';
import { playUpToTheDevs } from './testing/play-up-to-the-devs.ts';
import { MAP, UP_TO_ARQUITETO } from './testing/production-line-script.ts';

const script = (port: number, outside: string): ScriptInput => ({
  turns: [
    ...UP_TO_ARQUITETO,
    { agent: 'arquiteto', tool_calls: [{ name: 'declare_module_map', arguments: MAP }] },
    { agent: 'arquiteto', tool_calls: [{ name: 'hand_off_to_devs', arguments: {} }] },
    { agent: 'arquiteto', text: 'Sem contratos ainda.' },
    {
      agent: 'dev:catalogo',
      expect: { tools: ['mcp__fixture__echo', 'mcp__fixture__probe', 'terminal'] },
      tool_calls: [
        { name: 'mcp__fixture__echo', arguments: { text: 'pão de queijo' } },
        { name: 'mcp__fixture__probe', arguments: { port, outside } },
        { name: 'mcp__fixture__echo', arguments: { text: 'x'.repeat(101) } },
        { name: 'mcp__fixture__flood', arguments: { bytes: 200_000 } },
        { name: 'mcp__fixture__fail', arguments: {} },
      ],
    },
    {
      agent: 'dev:catalogo',
      text: 'O servidor respondeu.',
      expect: {
        messages: [
          'echo from the fixture: pão de queijo',
          'network',
          'refused',
          'outside',
          'refused',
          'inside',
          'done',
          'mcp__fixture__echo',
          'text',
          'the fixture failed on purpose',
        ],
      },
    },
    { agent: 'dev:pedidos', text: 'Começo pelos contratos.' },
  ],
});

describe.each(testDatabaseEngines())(
  "a project's MCP servers reach its devs on $name",
  (engine) => {
    let close: (() => Promise<unknown>) | undefined;
    afterEach(async () => {
      await close?.();
      close = undefined;
    });

    it("a dev is offered a stdio server's tools, calls them inside its sandbox and reads their results", {
      timeout: 240_000,
    }, async () => {
      expect((await createTerminalRunner(DEFAULT_TERMINAL_SETTINGS).probe()).available).toBe(true);
      const dataDirectory = await mkdtemp(join(tmpdir(), 'forja-dev-mcp-'));
      const outsideDirectory = await mkdtemp(join(tmpdir(), 'forja-mcp-outside-'));
      const outside = join(outsideDirectory, 'escaped.txt');
      // A port on the host's loopback: the sandbox has a network namespace of its own, so it is not reached.
      let connections = 0;
      const listener: Server = createServer((socket) => {
        connections += 1;
        socket.destroy();
      });
      await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
      const port = (listener.address() as { port: number }).port;
      const loaded = loadConfig({ FORJA_DATA_DIR: dataDirectory });
      if (!loaded.ok) throw new Error(loaded.error.message);
      const database = await engine.open();
      const provider = createScriptedProvider({ script: script(port, outside) });
      const forja = await createForja(loaded.config, pino({ level: 'silent' }), {
        env: {},
        database,
        provider,
      });
      close = async () => (
        await forja.close(),
        await database.close(),
        listener.close(),
        await rm(dataDirectory, { recursive: true, force: true }),
        await rm(outsideDirectory, { recursive: true, force: true })
      );
      const { projectId, sessionId } = await playUpToTheDevs(forja);
      const declared = await requestJson(forja, 'PUT', `/api/projects/${projectId}/mcp-servers`, {
        servers: [{ name: 'fixture', transport: 'stdio', command: MCP_FIXTURE_COMMAND }],
      });
      expect(declared).toMatchObject({ status: 200, body: { servers: [{ name: 'fixture' }] } });
      // The server lives in catalogo's worktree; pedidos has none there, so its server does not start.
      const workspaces = createProjectWorkspaces({ dataDirectory: loaded.config.dataDirectory });
      const worktree = await workspaces.ensureWorktree(projectId, 'catalogo');
      await installMcpFixture(worktree.directory);
      await requestJson(forja, 'POST', `/api/sessions/${sessionId}/dev-handoffs/accept`);
      await forja.conversation.idle(sessionId);

      const events = await forja.eventLog.read(sessionId, { limit: 10_000 });
      expect(events.map((event) => event.type)).not.toContain('turn.failed');
      const completed = events
        .filter((event) => event.type === 'tool.completed')
        .map((event) => event.payload as { tool: string; ok: boolean; result: string });
      const mcp = completed.filter((call) => call.tool.startsWith('mcp__fixture__'));
      expect(mcp.map((call) => [call.tool, call.ok])).toEqual([
        ['mcp__fixture__echo', true],
        ['mcp__fixture__probe', true],
        ['mcp__fixture__echo', false],
        ['mcp__fixture__flood', true],
        ['mcp__fixture__fail', false],
      ]);
      // Inside the sandbox: the network is not reached, nothing is written outside, the worktree is its cwd.
      const probe = JSON.parse(mcp[1]!.result) as Record<string, string>;
      expect(probe).toMatchObject({ network: expect.stringMatching(/^refused/), inside: 'done' });
      expect(probe.outside).toMatch(/^refused/);
      expect(connections).toBe(0);
      expect(existsSync(outside)).toBe(false);
      expect(await readFile(join(worktree.directory, 'written-by-mcp.txt'), 'utf8')).toBe('inside');
      // No host path reaches the log: the worktree is ".".
      expect(probe.cwd).toBe('.');
      expect(JSON.stringify(completed)).not.toContain(dataDirectory);
      // Arguments the server's schema refuses are refused by Forja, naming the field.
      expect(mcp[2]!.result).toMatch(/^Invalid arguments for mcp__fixture__echo: text: /);
      // Output is bounded as the terminal's is.
      expect(mcp[3]!.result).toContain('[output cut at 65536 bytes]');
      expect(Buffer.byteLength(mcp[3]!.result)).toBeLessThan(65_536 + 100);
      provider.assertAllTurnsConsumed();
    });
  },
);
