import { link, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../../store/index.ts';
import { testDatabaseEngines } from '../../store/testing/test-databases.ts';
import {
  createTerminalRunner,
  DEFAULT_TERMINAL_SETTINGS,
  gitAt,
  type ModuleWorktree,
} from '../../workspace/index.ts';
import { devAgent } from './dev-agent.ts';
import { openLineFixture, type LineFixture } from './test-support/line-fixture.ts';

/** Every file under `directory` (not following links, not entering .git), with its content. */
async function snapshot(directory: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  const walk = async (current: string): Promise<void> => {
    for (const entry of await readdir(current, { withFileTypes: true })) {
      const path = join(current, entry.name);
      if (entry.name === '.git') continue;
      if (entry.isDirectory()) await walk(path);
      else
        files[relative(directory, path)] = entry.isSymbolicLink()
          ? '(link)'
          : await readFile(path, 'utf8');
    }
  };
  await walk(directory);
  return files;
}

/** Attempts to leave the worktree, for every path tool: each must be refused and write nothing. */
const ESCAPES: Array<[string, string, RegExp]> = [
  ['a "../" path', '../outside/secret.txt', /"\.\." climbs above the root of your worktree/],
  [
    'a "../" hidden in the middle',
    'src/../../outside/secret.txt',
    /"\.\." climbs above the root of your worktree/,
  ],
  ['an absolute path', '/etc/passwd', /absolute paths are not accepted/],
  [
    'an absolute path to the outside directory',
    '@outside/secret.txt',
    /absolute paths are not accepted/,
  ],
  [
    'a directory symlink leading out',
    'escape/secret.txt',
    /escape is a symbolic link; file tools never follow links/,
  ],
  [
    'a file symlink leading out',
    'secret-link.txt',
    /secret-link\.txt (refused|cannot be written): it is a symbolic link; file tools never follow links/,
  ],
  [
    'a dangling symlink pointing out',
    'dangling.txt',
    /dangling\.txt (refused|cannot be written): it is a symbolic link; file tools never follow links/,
  ],
  [
    'a hard link to a file outside',
    'hard-link.txt',
    /hard-link\.txt (refused|cannot be written): it has 2 hard links/,
  ],
  [
    'a file used as a directory',
    'plain.txt/child.txt',
    /plain\.txt is a file, not a directory, so nothing can be inside it/,
  ],
  ['git metadata', '.git', /\.git links the worktree to its repository/],
];

describe.each(testDatabaseEngines())('dev tools on $name', (engine) => {
  let database: Database;
  let fixture: LineFixture;
  let outside: string;
  let worktree: ModuleWorktree;
  beforeAll(async () => (database = await engine.open()));
  afterAll(() => database.close());
  beforeEach(async () => {
    fixture = await openLineFixture(engine, { database, bubblewrapPath: '/nonexistent/bwrap' });
    outside = await mkdtemp(join(tmpdir(), 'forja-outside-'));
    await writeFile(join(outside, 'secret.txt'), 'do not touch');
    worktree = await fixture.workspaces.ensureWorktree(fixture.projectId, 'pedidos');
    await symlink(outside, join(worktree.directory, 'escape'));
    await symlink(join(outside, 'secret.txt'), join(worktree.directory, 'secret-link.txt'));
    await symlink(
      join(outside, 'created-through-link.txt'),
      join(worktree.directory, 'dangling.txt'),
    );
    await link(join(outside, 'secret.txt'), join(worktree.directory, 'hard-link.txt'));
    await writeFile(join(worktree.directory, 'plain.txt'), 'plain');
  });
  afterEach(async () => {
    await fixture.close();
    await rm(outside, { recursive: true, force: true });
  });
  const dev = { agent: 'dev:pedidos', module: 'pedidos' };
  const tools = () => devAgent(fixture.line, 'pedidos').tools;
  const pathOf = (requested: string) => requested.replace('@outside', outside);

  it.each(ESCAPES)(
    'refuses %s in read_file, write_file and search_workspace, writing nothing',
    async (_name, requested, reason) => {
      const before = {
        worktree: await snapshot(worktree.directory),
        outside: await snapshot(outside),
      };
      const attempts = [
        await fixture.call(tools(), 'read_file', { path: pathOf(requested) }, dev),
        await fixture.call(
          tools(),
          'write_file',
          { path: pathOf(requested), content: 'pwned' },
          dev,
        ),
        await fixture.call(
          tools(),
          'search_workspace',
          { query: 'touch', path: pathOf(requested) },
          dev,
        ),
      ];
      for (const attempt of attempts)
        expect(attempt).toMatchObject({ ok: false, result: expect.stringMatching(reason) });
      expect(attempts[1]!.result).toContain('Nothing was written.');
      expect({
        worktree: await snapshot(worktree.directory),
        outside: await snapshot(outside),
      }).toEqual(before);
    },
  );

  it('reads, writes and searches inside the worktree, and never follows a link out while searching', async () => {
    expect(
      await fixture.call(
        tools(),
        'write_file',
        { path: 'src/pedidos.ts', content: 'export const touch = 1;\n' },
        dev,
      ),
    ).toEqual({ ok: true, result: 'Wrote 24 bytes to src/pedidos.ts.' });
    expect(await fixture.call(tools(), 'read_file', { path: 'src/pedidos.ts' }, dev)).toEqual({
      ok: true,
      result: 'export const touch = 1;\n',
    });
    expect(await fixture.call(tools(), 'read_file', { path: 'src' }, dev)).toEqual({
      ok: true,
      result: 'src is a directory: pedidos.ts',
    });
    expect(await fixture.call(tools(), 'search_workspace', { query: 'TOUCH' }, dev)).toEqual({
      ok: true,
      result: 'src/pedidos.ts:1: export const touch = 1;',
    });
  });

  it("commits the task on the module branch, refusing unknown tasks, other modules' tasks and empty commits", async () => {
    const task = (id: string, module?: string) => ({
      id,
      story_id: 'HS-001',
      title: 'Tela',
      description: 'Formulário',
      acceptance_criteria: ['ok'],
      ...(module ? { module } : {}),
    });
    await fixture.recordArtifact('task', task('AT-001', 'pedidos'), 'po');
    await fixture.recordArtifact('task', task('AT-002', 'catalogo'), 'po');
    expect(
      (await fixture.call(tools(), 'finish_task', { task_id: 'AT-404', resumo: 'x' }, dev)).result,
    ).toContain('AT-404 is not a task of the backlog');
    expect(
      (await fixture.call(tools(), 'finish_task', { task_id: 'AT-002', resumo: 'x' }, dev)).result,
    ).toContain('AT-002 belongs to module catalogo, not to pedidos');
    await rm(join(worktree.directory, 'escape'));
    await rm(join(worktree.directory, 'secret-link.txt'));
    await rm(join(worktree.directory, 'dangling.txt'));
    await rm(join(worktree.directory, 'hard-link.txt'));
    await rm(join(worktree.directory, 'plain.txt'));
    expect(
      (await fixture.call(tools(), 'finish_task', { task_id: 'AT-001', resumo: 'x' }, dev)).result,
    ).toContain('nothing to commit on dev-pedidos');

    await fixture.call(
      tools(),
      'write_file',
      { path: 'src/pedidos.ts', content: 'export {};\n' },
      dev,
    );
    const finished = await fixture.call(
      tools(),
      'finish_task',
      { task_id: 'AT-001', resumo: '--amend: a tela de pedidos' },
      dev,
    );
    expect(finished).toMatchObject({
      ok: true,
      result: expect.stringMatching(
        /^No check: module pedidos declares none and its stack has no default\. Committed [0-9a-f]{12} on dev-pedidos: src\/pedidos\.ts\.$/,
      ),
    });
    const git = gitAt(fixture.workspaces.workspaceDirectory(fixture.projectId));
    expect((await git.raw(['log', '-1', '--format=%s', 'dev-pedidos'])).trim()).toBe(
      'AT-001: --amend: a tela de pedidos',
    );
    expect(await git.raw(['show', 'dev-pedidos:src/pedidos.ts'])).toBe('export {};\n');
    expect((await fixture.eventLog.read(fixture.sessionId)).at(-1)).toMatchObject({
      type: 'dev.task_finished',
      payload: {
        agent: 'dev:pedidos',
        module: 'pedidos',
        task_id: 'AT-001',
        branch: 'dev-pedidos',
        files: ['src/pedidos.ts'],
      },
    });
  });

  it('replaces a file without writing into it: its mode stays, no scratch file is left', async () => {
    await writeFile(join(worktree.directory, 'run.sh'), '#!/bin/sh\n', { mode: 0o755 });
    expect(
      await fixture.call(
        tools(),
        'write_file',
        { path: 'run.sh', content: '#!/bin/sh\necho oi\n' },
        dev,
      ),
    ).toMatchObject({ ok: true });
    expect((await stat(join(worktree.directory, 'run.sh'))).mode & 0o777).toBe(0o755);
    expect(await readFile(join(worktree.directory, 'run.sh'), 'utf8')).toBe('#!/bin/sh\necho oi\n');
    expect(
      (await readdir(worktree.directory)).filter((name) => name.startsWith('.forja-write-')),
    ).toEqual([]);
  });

  it('records a block for a missing interface', async () => {
    expect(
      (await fixture.call(tools(), 'report_blocked', { modulo: 'Catalogo!', falta: '' }, dev))
        .result,
    ).toMatch(/modulo: must be a module name.*falta: must not be empty/);
    expect(
      (
        await fixture.call(
          tools(),
          'report_blocked',
          { kind: 'bug', modulo: 'catalogo', falta: 'x' },
          dev,
        )
      ).result,
    ).toContain('kind: must be one of interface, check, task, other');
    const blocked = await fixture.call(
      tools(),
      'report_blocked',
      { modulo: 'catalogo', falta: 'funcao reservarPao(id): Reserva' },
      dev,
    );
    expect(blocked).toMatchObject({
      ok: true,
      result: expect.stringContaining(
        'Recorded: blocked (interface) on catalogo — funcao reservarPao(id): Reserva. The Arquiteto declares it in a new version of the contracts',
      ),
    });
    expect((await fixture.eventLog.read(fixture.sessionId)).at(-1)).toMatchObject({
      type: 'dev.blocked',
      actor: 'dev:pedidos',
      payload: { module: 'pedidos', modulo: 'catalogo', falta: 'funcao reservarPao(id): Reserva' },
    });
  });

  it('offers terminal as a proposed action by default (direct only when configured), and refuses it with the reason where the sandbox cannot be made', async () => {
    expect(tools().find((tool) => tool.name === 'terminal')!.mode).toBe('proposed');
    const direct = devAgent(
      {
        ...fixture.line,
        terminal: createTerminalRunner({ ...DEFAULT_TERMINAL_SETTINGS, mode: 'direct' }),
      },
      'pedidos',
    );
    expect(direct.tools.find((tool) => tool.name === 'terminal')!.mode).toBe('direct');
    const refused = await fixture.call(
      tools(),
      'terminal',
      { command: 'touch made-anyway.txt' },
      dev,
    );
    expect(refused).toMatchObject({
      ok: false,
      result: expect.stringContaining(
        'terminal refused: the sandbox could not be made (/nonexistent/bwrap cannot be started',
      ),
    });
    expect(await snapshot(worktree.directory)).not.toHaveProperty('made-anyway.txt');
  });

  it('the module of every path tool is the one of the loop: another dev writes in its own worktree', async () => {
    await fixture.call(tools(), 'write_file', { path: 'mine.txt', content: 'pedidos' }, dev);
    const other = await fixture.workspaces.ensureWorktree(fixture.projectId, 'catalogo');
    await fixture.call(
      devAgent(fixture.line, 'catalogo').tools,
      'write_file',
      { path: 'mine.txt', content: 'catalogo' },
      { agent: 'dev:catalogo', module: 'catalogo' },
    );
    expect(await readFile(join(worktree.directory, 'mine.txt'), 'utf8')).toBe('pedidos');
    expect(await readFile(join(other.directory, 'mine.txt'), 'utf8')).toBe('catalogo');
  });
});
