import { execFile } from 'node:child_process';
import { existsSync, lstatSync, readlinkSync, readdirSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../accounts/passwords.ts';
import { newSecret, TOKEN_PREFIX } from '../../accounts/secrets.ts';
import { createForja, type Forja } from '../../composition.ts';
import { loadConfig } from '../../config/config.ts';
import { createPerson, insertApiToken, putMember, type Database } from '../../store/index.ts';
import { testDatabaseEngines } from '../../store/testing/test-databases.ts';
import { requestJson } from '../../testing/forja-harness.ts';
import { workspaceDirectory } from '../../workspace/index.ts';
import { listen, type ListeningServer } from '../listen.ts';
import { pktLine } from './git-http.ts';

const run = promisify(execFile);
/** The test's own git, as a person's: no system or user configuration. */
const GIT_ENV = {
  PATH: '/usr/local/bin:/usr/bin:/bin',
  HOME: '/nonexistent',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_TERMINAL_PROMPT: '0',
};
const git = async (cwd: string, ...args: string[]) =>
  (
    await run('git', ['-c', 'user.name=T', '-c', 'user.email=t@t', ...args], {
      cwd,
      env: GIT_ENV,
    })
  ).stdout;
const gitFails = async (cwd: string, ...args: string[]) =>
  git(cwd, ...args).then(
    () => null,
    (error: { stderr?: string }) => error.stderr ?? 'failed',
  );

/** A repository with history: two commits on `trunk` (its default branch) and one more on `feature`. */
async function makeSource(directory: string): Promise<void> {
  await mkdir(directory, { recursive: true });
  await git(directory, 'init', '--quiet', '--initial-branch=trunk');
  await writeFile(join(directory, 'AGENTS.md'), '# Old project\nRun npm test.\n');
  await git(directory, 'add', '.');
  await git(directory, 'commit', '--quiet', '-m', 'first: agents');
  await writeFile(join(directory, 'package.json'), '{"name":"old","version":"1.0.0"}\n');
  await git(directory, 'add', '.');
  await git(directory, 'commit', '--quiet', '-m', 'second: package');
  await git(directory, 'checkout', '--quiet', '-b', 'feature');
  await writeFile(join(directory, 'feature.txt'), 'feature\n');
  await git(directory, 'add', '.');
  await git(directory, 'commit', '--quiet', '-m', 'third: feature');
  // A source branch named like Forja's integration branch must not become it.
  await git(directory, 'branch', 'dev', 'feature');
  await git(directory, 'checkout', '--quiet', 'trunk');
}

/**
 * A repository whose content and configuration would run commands if anything obeyed them: a filter on every
 * file, hooks, fsmonitor, a submodule pointing outside, and a link to /etc. Each would touch a marker.
 */
async function makeHostile(directory: string, markers: string): Promise<string[]> {
  await mkdir(directory, { recursive: true });
  await git(directory, 'init', '--quiet', '--initial-branch=main');
  await writeFile(join(directory, '.gitattributes'), '* filter=evil diff=evil\n');
  await writeFile(join(directory, 'AGENTS.md'), 'hello\n');
  await symlink('/etc', join(directory, 'etc-link'));
  await writeFile(
    join(directory, '.gitmodules'),
    '[submodule "outside"]\n\tpath = outside\n\turl = /etc\n',
  );
  await git(directory, 'add', '.');
  await git(directory, 'update-index', '--add', '--cacheinfo', `160000,${'1'.repeat(40)},outside`);
  await git(directory, 'commit', '--quiet', '-m', 'hostile');
  // Only now the configuration that would run things (the test's own commit above must not run it).
  const touched = ['filter', 'process', 'fsmonitor', 'hook', 'hooks-path', 'upload'].map((name) =>
    join(markers, name),
  );
  const [filter, proc, fsmonitor, hook, hooksPathMarker, upload] = touched;
  await writeFile(
    join(directory, '.git', 'config'),
    `${await readFile(join(directory, '.git', 'config'), 'utf8')}[filter "evil"]\n\tsmudge = touch ${filter}; cat\n\tclean = touch ${filter}; cat\n\tprocess = touch ${proc}\n\trequired = true\n[diff "evil"]\n\tcommand = touch ${filter}\n[core]\n\tfsmonitor = touch ${fsmonitor}\n\thooksPath = ${join(directory, 'evil-hooks')}\n[uploadpack]\n\tpackObjectsHook = touch ${upload}\n`,
  );
  for (const [hooks, marker] of [
    [join(directory, '.git', 'hooks'), hook],
    [join(directory, 'evil-hooks'), hooksPathMarker],
  ] as const) {
    await mkdir(hooks, { recursive: true });
    for (const name of [
      'post-checkout',
      'reference-transaction',
      'pre-upload-pack',
      'post-merge',
    ]) {
      await writeFile(join(hooks, name), `#!/bin/sh\ntouch ${marker}\n`);
      await chmod(join(hooks, name), 0o755);
    }
  }
  return touched;
}

async function startForja(
  engine: { open(): Promise<Database> },
  env: Record<string, string>,
): Promise<{ forja: Forja; database: Database; server: ListeningServer; close(): Promise<void> }> {
  const loaded = loadConfig(env);
  if (!loaded.ok) throw new Error(loaded.error.message);
  const database = await engine.open();
  const forja = await createForja(loaded.config, pino({ level: 'silent' }), { env: {}, database });
  const server = await listen(forja.app.fetch, { host: '127.0.0.1', port: 0 });
  return {
    forja,
    database,
    server,
    close: async () => {
      await server.close();
      await forja.close();
      await database.close();
    },
  };
}

describe.each(testDatabaseEngines())(
  'bring a repository in, take the work out, on $name',
  (engine) => {
    let scratch: string;
    let data: string;
    let started: Awaited<ReturnType<typeof startForja>>;
    beforeAll(async () => {
      scratch = await mkdtemp(join(tmpdir(), 'forja-import-'));
      data = join(scratch, 'data');
      started = await startForja(engine, { FORJA_DATA_DIR: data });
    });
    afterAll(async () => {
      await started.close();
      await rm(scratch, { recursive: true, force: true });
    });
    const count = async () =>
      (await started.database.query<{ n: number }>('select count(*)::int as n from projects'))
        .rows[0]!.n;
    const projectDirectories = () =>
      existsSync(join(data, 'projects')) ? readdirSync(join(data, 'projects')) : [];

    it('imports a repository with its history and serves it to a real git clone over HTTP', async () => {
      const source = join(scratch, 'old');
      await makeSource(source);
      const created = await requestJson(started.forja, 'POST', '/api/projects', {
        name: 'Old',
        source: { path: source },
      });
      expect(created.status).toBe(201);
      const id = created.body.id as string;
      const workspace = workspaceDirectory(data, id);
      // main is the source's default branch (trunk), dev the same commit, main checked out.
      const trunk = (await git(source, 'rev-parse', 'trunk')).trim();
      expect((await git(workspace, 'rev-parse', 'main', 'dev')).trim().split('\n')).toEqual([
        trunk,
        trunk,
      ]);
      expect(await readFile(join(workspace, 'AGENTS.md'), 'utf8')).toContain('Old project');

      // The agents read the imported repository's AGENTS.md as their instruction files.
      const session = await requestJson(started.forja, 'POST', `/api/projects/${id}/sessions`, {});
      const context = await requestJson(
        started.forja,
        'GET',
        `/api/sessions/${session.body.id}/agents/criativo/context`,
      );
      expect(context.status).toBe(200);
      expect(JSON.stringify(context.body)).toContain('Run npm test.');
      const clone = join(scratch, 'clone');
      await git(scratch, 'clone', '--quiet', `${started.server.url}/git/${id}.git`, clone);
      expect(await git(clone, 'log', '--format=%s', 'main')).toBe(
        'second: package\nfirst: agents\n',
      );
      expect(await readFile(join(clone, 'package.json'), 'utf8')).toContain('"old"');
      expect(await readFile(join(clone, 'AGENTS.md'), 'utf8')).toContain('Run npm test.');
      // The clone has dev too, and the source's branches under origin/ of the project's repository.
      expect((await git(clone, 'rev-parse', 'origin/dev')).trim()).toBe(trunk);

      // A ref: main starts at the feature branch.
      const featured = await requestJson(started.forja, 'POST', '/api/projects', {
        name: 'Featured',
        source: { path: source, ref: 'feature' },
      });
      expect(featured.status).toBe(201);
      expect(
        (await git(workspaceDirectory(data, featured.body.id), 'rev-parse', 'main')).trim(),
      ).toBe((await git(source, 'rev-parse', 'feature')).trim());
      // An http(s) source: the project just served is imported again through Forja's own URL.
      const again = await requestJson(started.forja, 'POST', '/api/projects', {
        name: 'Again',
        source: { git: `${started.server.url}/git/${id}.git` },
      });
      expect(again.status).toBe(201);
      expect(await git(workspaceDirectory(data, again.body.id), 'log', '--format=%s', 'main')).toBe(
        'second: package\nfirst: agents\n',
      );
    });

    it('imports a hostile repository without running anything of it or following its link', async () => {
      const markers = join(scratch, 'markers');
      await mkdir(markers);
      const source = join(scratch, 'hostile');
      const touched = await makeHostile(source, markers);
      const created = await requestJson(started.forja, 'POST', '/api/projects', {
        name: 'Hostile',
        source: { path: source },
      });
      expect(created.status).toBe(201);
      const workspace = workspaceDirectory(data, created.body.id);
      const link = lstatSync(join(workspace, 'etc-link'));
      expect(link.isSymbolicLink()).toBe(true);
      expect(readlinkSync(join(workspace, 'etc-link'))).toBe('/etc');
      // The submodule is an empty directory: nothing was cloned into it.
      expect(readdirSync(join(workspace, 'outside'))).toEqual([]);
      const clone = join(scratch, 'hostile-clone');
      await git(
        scratch,
        'clone',
        '--quiet',
        `${started.server.url}/git/${created.body.id}.git`,
        clone,
      );
      expect(lstatSync(join(clone, 'etc-link')).isSymbolicLink()).toBe(true);
      for (const marker of touched) expect(existsSync(marker), marker).toBe(false);
    });

    it('refuses a directory that is not a repository, an unknown ref and another transport, storing nothing', async () => {
      const source = join(scratch, 'refusal-source');
      await makeSource(source);
      const plain = join(scratch, 'plain');
      await mkdir(plain, { recursive: true });
      const [before, directories] = [await count(), projectDirectories()];
      // A link from outside into the data directory is refused as the directory itself.
      const intoData = join(scratch, 'into-data');
      if (!existsSync(intoData)) await symlink(join(data, 'projects'), intoData);
      const refusals: Array<[unknown, string]> = [
        [{ path: plain }, 'source.path'],
        [{ path: join(scratch, 'missing') }, 'source.path'],
        [{ path: 'relative/path' }, 'source.path'],
        [{ path: join(data, 'projects') }, 'source.path'],
        [{ path: intoData }, 'source.path'],
        [{ path: source, ref: 'no-such-branch' }, 'source.ref'],
        [{ path: source, ref: '--upload-pack=touch' }, 'source.ref'],
        [{ git: `file://${source}` }, 'source.git'],
        [{ git: 'ext::sh -c touch% /tmp/forja-ext' }, 'source.git'],
        [
          { git: `${started.server.url}/git/00000000-0000-4000-8000-000000000000.git` },
          'source.git',
        ],
      ];
      for (const [body, field] of refusals) {
        const refused = await requestJson(started.forja, 'POST', '/api/projects', {
          name: 'Refused',
          source: body,
        });
        expect(refused.status, JSON.stringify(body)).toBe(422);
        expect(refused.body.error.field, JSON.stringify(body)).toBe(field);
      }
      expect(await count()).toBe(before);
      expect(projectDirectories()).toEqual(directories);
    });

    it('serves read-only: a push is refused, an unknown project is 404', async () => {
      const readOnlySource = join(scratch, 'read-only-source');
      await makeSource(readOnlySource);
      const created = await requestJson(started.forja, 'POST', '/api/projects', {
        name: 'Read only',
        source: { path: readOnlySource },
      });
      const url = `${started.server.url}/git/${created.body.id}.git`;
      const receive = await fetch(`${url}/info/refs?service=git-receive-pack`);
      expect(receive.status).toBe(403);
      expect(((await receive.json()) as { error: { code: string } }).error.code).toBe('read_only');
      // A negotiation git sends gzipped (it does for long ones) is read as well as a plain one.
      const main = (await git(readOnlySource, 'rev-parse', 'trunk')).trim();
      const wants = `${pktLine(`want ${main} ofs-delta\n`)}0000${pktLine('done\n')}`;
      for (const gzipped of [false, true]) {
        const answered = await fetch(`${url}/git-upload-pack`, {
          method: 'POST',
          headers: {
            'content-type': 'application/x-git-upload-pack-request',
            ...(gzipped ? { 'content-encoding': 'gzip' } : {}),
          },
          body: gzipped ? gzipSync(wants) : wants,
        });
        expect(answered.headers.get('content-type')).toBe('application/x-git-upload-pack-result');
        expect(Buffer.from(await answered.arrayBuffer()).includes('PACK')).toBe(true);
      }
      // A body that is not the gzip it says it is stops git, and Forja goes on serving.
      const broken = await fetch(`${url}/git-upload-pack`, {
        method: 'POST',
        headers: { 'content-encoding': 'gzip' },
        body: 'not gzip at all',
      });
      expect(Buffer.from(await broken.arrayBuffer()).includes('PACK')).toBe(false);
      const clone = join(scratch, 'push-clone');
      await git(scratch, 'clone', '--quiet', url, clone);
      await git(clone, 'commit', '--quiet', '--allow-empty', '-m', 'pushed');
      expect(await gitFails(clone, 'push', 'origin', 'main')).toMatch(/403/);
      expect(
        await gitFails(
          scratch,
          'clone',
          `${started.server.url}/git/${crypto.randomUUID()}.git`,
          join(scratch, 'none'),
        ),
      ).toMatch(/not found|404/i);
    });
  },
);

describe.each(testDatabaseEngines())('who may clone beyond loopback, on $name', (engine) => {
  it('refuses a clone without a token, lets a member clone with one, and answers 404 to another person', async () => {
    const scratch = await mkdtemp(join(tmpdir(), 'forja-clone-access-'));
    const data = join(scratch, 'data');
    const started = await startForja(engine, {
      HOST: '0.0.0.0',
      PORT: '4321',
      FORJA_PUBLIC_URL: 'https://forja.example.com',
      FORJA_DATA_DIR: data,
    });
    try {
      const source = join(scratch, 'old');
      await makeSource(source);
      // Before the first account, Forja's one user imports a path.
      const created = await requestJson(started.forja, 'POST', '/api/projects', {
        name: 'Old',
        source: { path: source },
      });
      expect(created.status).toBe(201);
      const passwordHash = await hashPassword('a long enough password');
      const ana = (await createPerson(started.database, { username: 'ana', passwordHash })).person;
      const bruno = (await createPerson(started.database, { username: 'bruno', passwordHash }))
        .person;
      await putMember(started.database, {
        projectId: created.body.id,
        personId: ana.id,
        role: 'owner',
      });
      const tokenOf = async (personId: string) => {
        const { secret, hash } = newSecret(TOKEN_PREFIX);
        await insertApiToken(started.database, { personId, name: 'git', secretHash: hash });
        return secret;
      };
      const [anaToken, brunoToken] = [await tokenOf(ana.id), await tokenOf(bruno.id)];
      let status = 200;
      for (let tries = 0; tries < 200 && status !== 401; tries += 1) {
        status = (await requestJson(started.forja, 'GET', '/api/projects')).status;
        if (status !== 401) await new Promise((resolve) => setTimeout(resolve, 10));
      }
      const url = `${started.server.url}/git/${created.body.id}.git`;
      const withToken = (token: string) => [
        '-c',
        `http.extraHeader=Authorization: Bearer ${token}`,
      ];
      expect((await fetch(`${url}/info/refs?service=git-upload-pack`)).status).toBe(401);
      // git is answered 401 and, with nothing to sign in with, gives up.
      expect(await gitFails(scratch, 'clone', url, join(scratch, 'anonymous'))).toMatch(
        /could not read Username|401|Authentication/i,
      );
      expect(existsSync(join(scratch, 'anonymous'))).toBe(false);
      expect(
        await gitFails(scratch, ...withToken(brunoToken), 'clone', url, join(scratch, 'bruno')),
      ).toMatch(/not found|404/i);
      await git(scratch, ...withToken(anaToken), 'clone', '--quiet', url, join(scratch, 'ana'));
      expect(await git(join(scratch, 'ana'), 'log', '--format=%s')).toBe(
        'second: package\nfirst: agents\n',
      );
      // git's own credentials (a helper, or the URL) carry the token as a Basic password, on /git/ only.
      const basicUrl = url.replace('http://', `http://ana:${anaToken}@`);
      await git(scratch, 'clone', '--quiet', basicUrl, join(scratch, 'ana-basic'));
      expect(await git(join(scratch, 'ana-basic'), 'log', '-1', '--format=%s')).toBe(
        'second: package\n',
      );
      const basicOnApi = await requestJson(started.forja, 'GET', '/api/projects', undefined, {
        authorization: `Basic ${Buffer.from(`ana:${anaToken}`).toString('base64')}`,
      });
      expect(basicOnApi.status).toBe(401);
      // With accounts, a path on the host is no longer a source, whoever asks.
      const byPath = await requestJson(
        started.forja,
        'POST',
        '/api/projects',
        { name: 'Again', source: { path: source } },
        { authorization: `Bearer ${anaToken}` },
      );
      expect(byPath.status).toBe(422);
      expect(byPath.body.error.field).toBe('source.path');
    } finally {
      await started.close();
      await rm(scratch, { recursive: true, force: true });
    }
  });
});
