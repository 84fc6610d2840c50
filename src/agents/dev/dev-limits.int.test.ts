import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../../store/index.ts';
import { testDatabaseEngines } from '../../store/testing/test-databases.ts';
import {
  FORK_BOMB,
  MEMORY_HOG,
  SMALL_LIMITS,
  TMP_FILL,
} from '../../workspace/terminal/test-support/small-limits.ts';
import type { ModuleWorktree } from '../../workspace/index.ts';
import { toToolDefinitions } from '../runtime/tool-definitions.ts';
import { devAgent } from './dev-agent.ts';
import { runModuleCheck } from './run-module-check.ts';
import { openLineFixture, type LineFixture } from './test-support/line-fixture.ts';

/** A command of the model's making that hits one limit, and the note the model reads for it. */
const HOGS: Array<[string, string, string]> = [
  ['a fork bomb', FORK_BOMB, 'the process limit (64 processes and threads) was reached'],
  ['a memory hog', MEMORY_HOG, 'the memory limit (256 MiB per process) was reached'],
  ['a /tmp fill', TMP_FILL, 'a disk limit was reached (/tmp holds 16 MiB)'],
];

describe.each(testDatabaseEngines())('the dev commands under small limits on $name', (engine) => {
  let database: Database;
  let fixture: LineFixture;
  let worktree: ModuleWorktree;
  let sandboxed: boolean;
  beforeAll(async () => (database = await engine.open()));
  afterAll(() => database.close());
  beforeEach(async () => {
    fixture = await openLineFixture(engine, {
      database,
      terminal: { mode: 'direct', timeoutMs: 4_000, limits: SMALL_LIMITS },
    });
    worktree = await fixture.workspaces.ensureWorktree(fixture.projectId, 'pedidos');
    sandboxed = (await fixture.line.terminal.probe()).available;
  });
  afterEach(() => fixture.close());
  const dev = { agent: 'dev:pedidos', module: 'pedidos' };
  const tools = () => devAgent(fixture.line, 'pedidos').tools;

  it('tells the model the limits in the terminal tool it is offered', () => {
    const terminal = toToolDefinitions(tools()).find((tool) => tool.name === 'terminal')!;
    expect(terminal.description).toContain(
      'limits: 64 processes, 256 MiB of memory and 2 s of CPU per process, files up to 8 MiB, /tmp 16 MiB',
    );
  });

  it.each(HOGS)('ends %s in `terminal` with the limit named', async (_name, command, note) => {
    const outcome = await fixture.call(tools(), 'terminal', { command }, dev);
    if (!sandboxed) return void expect(outcome.result).toContain('terminal refused');
    expect(outcome.ok).toBe(true);
    expect(outcome.result).toContain(`[limit: ${note}]`);
  });

  it.each(HOGS)(
    'ends %s run as the module check with the limit named',
    async (_name, command, note) => {
      const check = await runModuleCheck(fixture.line.terminal, worktree.directory, {
        name: 'pedidos',
        stack: 'node',
        check: command,
      });
      expect(check?.passed).toBe(false);
      if (!sandboxed) return void expect(check?.report).toContain('could not run');
      expect(check?.report).toContain(`[limit: ${note}]`);
    },
  );

  it('kills a running terminal command when the turn is stopped', async () => {
    const stop = new AbortController();
    const outcome = fixture.call(tools(), 'terminal', { command: 'sleep 600' }, dev, stop.signal);
    setTimeout(() => stop.abort(), 200);
    const result = (await outcome).result;
    if (!sandboxed) return void expect(result).toContain('terminal refused');
    expect(result).toContain('[killed by SIGKILL]');
    expect(result).toContain('[stopped: the turn was stopped]');
  });

  it('stops a check with the turn', async () => {
    const stop = new AbortController();
    stop.abort();
    const check = await runModuleCheck(
      fixture.line.terminal,
      worktree.directory,
      { name: 'pedidos', stack: 'node', check: 'sleep 600' },
      stop.signal,
    );
    if (!sandboxed) return;
    expect(check?.report).toContain('was stopped with the turn');
  });
});
