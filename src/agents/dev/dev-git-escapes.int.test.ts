import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testDatabaseEngines } from '../../store/testing/test-databases.ts';
import { gitAt, type ModuleWorktree } from '../../workspace/index.ts';
import { runHostGit } from '../../workspace/git/host-git.ts';
import { devAgent } from './dev-agent.ts';
import { openLineFixture, type LineFixture } from './test-support/line-fixture.ts';

const RULE = 'refused by the rule "host git never trusts the worktree"';

/**
 * What a hostile model would make its terminal do (the attacks of ADR 0040): a repository of its own inside
 * the worktree whose configuration runs a program from a clean filter and from core.fsmonitor, a
 * `.gitattributes` that applies the filter, and the worktree's `.git` pointed at it — so that Forja's
 * `git add` on the host would run the program.
 */
const attack = (marker: string) =>
  [
    'git init -q evil',
    `git -C evil config filter.x.clean "touch ${marker}; cat"`,
    `git -C evil config core.fsmonitor "touch ${marker}"`,
    'printf "* filter=x diff=x merge=x\\n" > .gitattributes',
    'printf "gitdir: %s/evil/.git\\n" "$PWD" > .git',
    'echo attacked',
  ].join('; ');

describe.each(testDatabaseEngines().slice(0, 1))(
  'host git against a hostile worktree on $name',
  (engine) => {
    let fixture: LineFixture;
    let outside: string;
    let worktree: ModuleWorktree;
    let linkBefore: string;
    let tipBefore: string;
    const marker = () => join(outside, 'host-code-ran');
    const dev = { agent: 'dev:pedidos', module: 'pedidos' };
    const git = () => gitAt(fixture.workspaces.workspaceDirectory(fixture.projectId));
    const tip = async () => (await git().raw(['rev-parse', 'dev-pedidos'])).trim();

    const open = async (terminal: { direct: boolean; sandboxed: boolean }) => {
      fixture = await openLineFixture(engine, {
        terminal: {
          mode: terminal.direct ? 'direct' : 'proposed',
          allowUnsandboxed: !terminal.sandboxed,
          timeoutMs: 20_000,
        },
        ...(terminal.sandboxed ? {} : { bubblewrapPath: '/nonexistent/bwrap' }),
      });
      worktree = await fixture.workspaces.ensureWorktree(fixture.projectId, 'pedidos');
      await fixture.recordArtifact(
        'task',
        {
          id: 'AT-001',
          story_id: 'HS-001',
          title: 'Tela',
          description: 'Formulário',
          acceptance_criteria: ['ok'],
          module: 'pedidos',
        },
        'po',
      );
      linkBefore = await readFile(join(worktree.directory, '.git'), 'utf8');
      tipBefore = await tip();
    };
    const tools = () => devAgent(fixture.line, 'pedidos').tools;
    const finish = () =>
      fixture.call(tools(), 'finish_task', { task_id: 'AT-001', resumo: 'a tela' }, dev);
    const finishedEvents = async () =>
      (await fixture.eventLog.read(fixture.sessionId)).filter(
        (event) => event.type === 'dev.task_finished',
      );

    beforeEach(async () => {
      outside = await mkdtemp(join(tmpdir(), 'forja-outside-'));
    });
    afterEach(async () => {
      await fixture.close();
      await rm(outside, { recursive: true, force: true });
    });

    it('in the sandbox: the terminal cannot rewrite .git, the nested repository is refused, no program runs on the host', async () => {
      await open({ direct: true, sandboxed: true });
      if (!(await fixture.line.terminal.probe()).available) {
        expect(
          (await fixture.call(tools(), 'terminal', { command: attack(marker()) }, dev)).result,
        ).toContain('terminal refused: the sandbox could not be made');
        return;
      }
      const attacked = await fixture.call(tools(), 'terminal', { command: attack(marker()) }, dev);
      expect(attacked).toMatchObject({
        ok: true,
        result: expect.stringMatching(/\.git: Read-only file system/),
      });
      expect(await readFile(join(worktree.directory, '.git'), 'utf8')).toBe(linkBefore);
      await fixture.call(
        tools(),
        'write_file',
        { path: 'src/tela.ts', content: 'export {};\n' },
        dev,
      );
      const refused = await finish();
      expect(refused).toEqual({
        ok: false,
        result: expect.stringContaining(
          'evil is a nested git repository: Forja commits files only',
        ),
      });
      expect(existsSync(marker())).toBe(false);
      expect(await tip()).toBe(tipBefore);
      expect(await finishedEvents()).toEqual([]);

      // Without the inner repository the work is committed — exactly the files finish_task names, the filter never run.
      await rm(join(worktree.directory, 'evil'), { recursive: true, force: true });
      const finished = await finish();
      expect(finished).toMatchObject({
        ok: true,
        result: expect.stringContaining('.gitattributes, src/tela.ts'),
      });
      expect(existsSync(marker())).toBe(false);
      const [event] = await finishedEvents();
      expect(event!.payload).toMatchObject({
        commit: await tip(),
        files: ['.gitattributes', 'src/tela.ts'],
      });
      expect(
        (await git().raw(['diff', '--name-only', tipBefore, 'dev-pedidos'])).trim().split('\n'),
      ).toEqual(['.gitattributes', 'src/tela.ts']);
      expect(await git().raw(['show', 'dev-pedidos:src/tela.ts'])).toBe('export {};\n');
    });

    it('without the sandbox (allowed by configuration): the rewritten .git is refused with the rule, nothing is committed, no program runs', async () => {
      await open({ direct: true, sandboxed: false });
      const attacked = await fixture.call(tools(), 'terminal', { command: attack(marker()) }, dev);
      expect(attacked.result).toContain('attacked');
      expect(await readFile(join(worktree.directory, '.git'), 'utf8')).not.toBe(linkBefore);
      const refused = await finish();
      expect({ hostCodeRan: existsSync(marker()) }).toEqual({ hostCodeRan: false });
      expect(refused).toEqual({
        ok: false,
        result: expect.stringContaining(
          `finish_task refused: ${RULE}: ${worktree.directory}/.git was changed — it says "gitdir: ${worktree.directory}/evil/.git"`,
        ),
      });
      expect(await tip()).toBe(tipBefore);
      expect(await finishedEvents()).toEqual([]);
    });

    describe('whatever the worktree holds, finish_task runs no program of it', () => {
      beforeEach(() => open({ direct: true, sandboxed: false }));
      const evilGitDir = async (where: string) => {
        await runHostGit({ gitDir: where, workTree: null }, ['init', '--quiet', '--bare']);
        await writeFile(
          join(where, 'config'),
          `[core]\n\tfsmonitor = touch ${marker()}\n\thooksPath = ${outside}/hooks\n[filter "x"]\n\tclean = touch ${marker()}; cat\n\tprocess = touch ${marker()}\n[diff "x"]\n\ttextconv = touch ${marker()}\n`,
          { flag: 'a' },
        );
        await mkdir(join(outside, 'hooks'), { recursive: true });
        for (const hook of ['pre-commit', 'commit-msg', 'post-commit', 'post-index-change']) {
          await writeFile(join(outside, 'hooks', hook), `#!/bin/sh\ntouch ${marker()}\n`);
          await chmod(join(outside, 'hooks', hook), 0o755);
        }
      };
      const refusedWith = async (reason: string | RegExp) => {
        await writeFile(join(worktree.directory, 'tela.ts'), 'export {};\n');
        const refused = await finish();
        expect(refused).toMatchObject({
          ok: false,
          result:
            typeof reason === 'string'
              ? expect.stringContaining(reason)
              : expect.stringMatching(reason),
        });
        expect(refused.result).toContain(RULE);
        expect(existsSync(marker())).toBe(false);
        expect(await tip()).toBe(tipBefore);
        expect(await finishedEvents()).toEqual([]);
      };

      it('.git pointed at a git directory elsewhere, whose config sets fsmonitor, hooksPath, filter and diff drivers', async () => {
        await evilGitDir(join(outside, 'evil.git'));
        await writeFile(join(worktree.directory, '.gitattributes'), '* filter=x diff=x\n');
        await writeFile(join(worktree.directory, '.git'), `gitdir: ${join(outside, 'evil.git')}\n`);
        await refusedWith(`.git was changed — it says "gitdir: ${join(outside, 'evil.git')}"`);
      });

      it('.git replaced by a symbolic link, even to the real git directory', async () => {
        const real = linkBefore.replace(/^gitdir: /, '').trim();
        await rm(join(worktree.directory, '.git'));
        await symlink(real, join(worktree.directory, '.git'));
        await refusedWith('.git was replaced by a symbolic link');
      });

      it('.git removed', async () => {
        await rm(join(worktree.directory, '.git'));
        await refusedWith('.git is missing');
      });

      it("the repository's own configuration changed to run programs (as if its git directory had been reached)", async () => {
        const repositoryConfig = join(
          fixture.workspaces.workspaceDirectory(fixture.projectId),
          '.git',
          'config',
        );
        await writeFile(
          repositoryConfig,
          `[filter "x"]\n\tclean = touch ${marker()}; cat\n[merge "x"]\n\tdriver = touch ${marker()}\n`,
          { flag: 'a' },
        );
        await writeFile(join(worktree.directory, '.gitattributes'), '* filter=x merge=x\n');
        await refusedWith(
          /sets filter\.x\.clean \(local configuration\), merge\.x\.driver \(local configuration\)/,
        );
      });

      it('.gitattributes naming filter, diff and merge drivers, a .gitmodules with a command, config and hooks as files: committed as plain files, nothing run', async () => {
        await writeFile(
          join(worktree.directory, '.gitattributes'),
          '* filter=x diff=x merge=x ident\n',
        );
        await writeFile(
          join(worktree.directory, '.gitmodules'),
          `[submodule "s"]\n\tpath = s\n\turl = ./s\n\tupdate = !touch ${marker()}\n`,
        );
        await writeFile(
          join(worktree.directory, '.gitconfig'),
          `[filter "x"]\n\tclean = touch ${marker()}; cat\n[core]\n\tfsmonitor = touch ${marker()}\n`,
        );
        await mkdir(join(worktree.directory, 'hooks'));
        await writeFile(
          join(worktree.directory, 'hooks', 'pre-commit'),
          `#!/bin/sh\ntouch ${marker()}\n`,
          { mode: 0o755 },
        );
        await writeFile(join(worktree.directory, 'tela.ts'), 'export {};\n');
        const finished = await finish();
        expect(finished).toMatchObject({
          ok: true,
          result: expect.stringContaining(
            '.gitattributes, .gitconfig, .gitmodules, hooks/pre-commit, tela.ts',
          ),
        });
        expect(existsSync(marker())).toBe(false);
        expect(await git().raw(['show', 'dev-pedidos:tela.ts'])).toBe('export {};\n');
      });
    });
  },
);
