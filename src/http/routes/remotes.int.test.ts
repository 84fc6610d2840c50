import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
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

const run = promisify(execFile);
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
const TOKEN = 's3cret-push-token';
const HTTP_BACKEND = '/usr/lib/git-core/git-http-backend';

/** A repository with two commits on `main`, an AGENTS.md and a package.json. */
async function makeSource(directory: string): Promise<void> {
  await mkdir(directory, { recursive: true });
  await git(directory, 'init', '--quiet', '--initial-branch=main');
  await writeFile(join(directory, 'AGENTS.md'), '# Old\n');
  await git(directory, 'add', '.');
  await git(directory, 'commit', '--quiet', '-m', 'first');
  await writeFile(join(directory, 'package.json'), '{"name":"old"}\n');
  await git(directory, 'add', '.');
  await git(directory, 'commit', '--quiet', '-m', 'second');
}

/** A bare repository whose hooks would touch `marker` if anything ran them. */
async function makeBare(directory: string, marker: string): Promise<void> {
  await git('/', 'init', '--quiet', '--bare', '--initial-branch=main', directory);
  for (const hook of ['pre-receive', 'update', 'post-receive', 'post-update']) {
    await writeFile(join(directory, 'hooks', hook), `#!/bin/sh\ntouch ${marker}\n`);
    await chmod(join(directory, 'hooks', hook), 0o755);
  }
}

/**
 * A git smart-HTTP server over `root` (git's own http-backend, push allowed) that answers 401 unless the
 * request carries Basic `forja:<TOKEN>`: a real remote that needs credentials.
 */
async function startGitServer(root: string): Promise<{ url: string; server: Server }> {
  const expected = `Basic ${Buffer.from(`forja:${TOKEN}`).toString('base64')}`;
  const server = createServer((request, response) => {
    if (request.headers.authorization !== expected) {
      response.writeHead(401, { 'WWW-Authenticate': 'Basic realm="test"' });
      return void response.end();
    }
    const url = new URL(request.url ?? '/', 'http://localhost');
    const cgi = spawn(HTTP_BACKEND, [], {
      env: {
        ...GIT_ENV,
        GIT_PROJECT_ROOT: root,
        GIT_HTTP_EXPORT_ALL: '1',
        REMOTE_USER: 'forja',
        REQUEST_METHOD: request.method ?? 'GET',
        PATH_INFO: url.pathname,
        QUERY_STRING: url.search.slice(1),
        CONTENT_TYPE: request.headers['content-type'] ?? '',
        ...(request.headers['content-encoding'] === undefined
          ? {}
          : { HTTP_CONTENT_ENCODING: request.headers['content-encoding'] }),
      },
    });
    request.pipe(cgi.stdin);
    const chunks: Buffer[] = [];
    cgi.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    cgi.on('close', () => {
      const output = Buffer.concat(chunks);
      const end = output.indexOf('\r\n\r\n');
      const headers = output.subarray(0, end).toString('utf8').split('\r\n');
      let status = 200;
      for (const line of headers) {
        const [name, ...rest] = line.split(':');
        const value = rest.join(':').trim();
        if (name!.toLowerCase() === 'status') status = Number.parseInt(value, 10);
        else response.setHeader(name!, value);
      }
      response.writeHead(status);
      response.end(output.subarray(end + 4));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return { url: `http://127.0.0.1:${address.port}`, server };
}

async function startForja(
  engine: { open(): Promise<Database> },
  config: Record<string, string>,
  env: Record<string, string>,
): Promise<{ forja: Forja; database: Database; close(): Promise<void> }> {
  const loaded = loadConfig(config);
  if (!loaded.ok) throw new Error(loaded.error.message);
  const database = await engine.open();
  const forja = await createForja(loaded.config, pino({ level: 'silent' }), { env, database });
  return {
    forja,
    database,
    close: async () => {
      await forja.close();
      await database.close();
    },
  };
}

describe.each(testDatabaseEngines())('pushing main to a declared remote, on $name', (engine) => {
  let scratch: string;
  let started: Awaited<ReturnType<typeof startForja>>;
  let gitServer: Awaited<ReturnType<typeof startGitServer>>;
  let projectId: string;
  let workspace: string;
  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'forja-push-'));
    gitServer = await startGitServer(join(scratch, 'served'));
    started = await startForja(
      engine,
      { FORJA_DATA_DIR: join(scratch, 'data') },
      { FORJA_GIT_TOKEN_SECURE: TOKEN },
    );
    await makeSource(join(scratch, 'source'));
    const created = await requestJson(started.forja, 'POST', '/api/projects', {
      name: 'Old',
      source: { path: join(scratch, 'source') },
    });
    projectId = created.body.id;
    workspace = workspaceDirectory(join(scratch, 'data'), projectId);
  });
  afterAll(async () => {
    await started.close();
    await new Promise((resolve) => gitServer.server.close(resolve));
    await rm(scratch, { recursive: true, force: true });
  });
  const call = (method: string, path: string, body?: unknown) =>
    requestJson(started.forja, method, `/api/projects/${projectId}${path}`, body);

  it('pushes main with its history to a bare repository on the host, running none of its hooks', async () => {
    const bare = join(scratch, 'backup.git');
    const marker = join(scratch, 'hook-ran');
    await makeBare(bare, marker);
    const declared = await call('PUT', '/remotes/backup', { url: `file://${bare}` });
    expect(declared).toMatchObject({
      status: 200,
      body: { name: 'backup', token_variable: 'FORJA_GIT_TOKEN_BACKUP', token_set: false },
    });
    const main = (await git(workspace, 'rev-parse', 'main')).trim();
    const pushed = await call('POST', '/push', { remote: 'backup' });
    expect(pushed).toMatchObject({
      status: 200,
      body: { remote: 'backup', branch: 'main', commit: main },
    });
    expect(await git(bare, 'log', '--format=%s', 'main')).toBe('second\nfirst\n');
    // Another branch of the remote, given by name.
    expect((await call('POST', '/push', { remote: 'backup', branch: 'release/1' })).status).toBe(
      200,
    );
    expect((await git(bare, 'rev-parse', 'release/1')).trim()).toBe(main);
    expect(existsSync(marker)).toBe(false);

    // Someone else moved the remote's main: the push is refused with git's reason, and nothing is forced.
    const other = join(scratch, 'other');
    await git(scratch, 'clone', '--quiet', bare, other);
    await git(other, 'commit', '--quiet', '--allow-empty', '-m', 'theirs');
    await git(other, 'push', '--quiet', 'origin', 'main');
    const theirs = (await git(bare, 'rev-parse', 'main')).trim();
    const rejected = await call('POST', '/push', { remote: 'backup' });
    expect(rejected.status).toBe(409);
    expect(rejected.body.error).toMatchObject({ code: 'push_rejected', field: 'remote' });
    expect(rejected.body.error.message).toMatch(/rejected/);
    expect(rejected.body.error.message.length).toBeLessThan(2300);
    expect((await git(bare, 'rev-parse', 'main')).trim()).toBe(theirs);
  });

  it('sends the token of the environment to an http remote, and only there; the database never holds it', async () => {
    await git('/', 'init', '--quiet', '--bare', join(scratch, 'served', 'app.git'));
    const url = `${gitServer.url}/app.git`;
    expect((await call('PUT', '/remotes/secure', { url })).body.token_set).toBe(true);
    expect((await call('PUT', '/remotes/open', { url })).body.token_set).toBe(false);
    // Without a token the remote refuses: 502 with git's reason, which names neither token nor variable value.
    const refused = await call('POST', '/push', { remote: 'open' });
    expect(refused.status).toBe(502);
    expect(refused.body.error.code).toBe('push_failed');
    expect(refused.body.error.message).toMatch(/401|Authentication|could not read Username/i);
    const pushed = await call('POST', '/push', { remote: 'secure' });
    expect(pushed.status).toBe(200);
    expect(await git(join(scratch, 'served', 'app.git'), 'log', '--format=%s', 'main')).toBe(
      'second\nfirst\n',
    );
    const stored = await started.database.query<{ url: string }>('select url from project_remotes');
    expect(JSON.stringify(stored.rows)).not.toContain(TOKEN);
    const listed = await call('GET', '/remotes');
    expect(listed.body.remotes.map((remote: { name: string }) => remote.name)).toEqual([
      'backup',
      'open',
      'secure',
    ]);
    expect(JSON.stringify(listed.body)).not.toContain(TOKEN);
  });

  it('refuses bad remotes and pushes naming the field; nothing is stored', async () => {
    const before = (await call('GET', '/remotes')).body.remotes.length;
    // A path outside the data directory that is a link into it: refused as the data directory itself.
    const linkIntoData = join(scratch, 'looks-outside');
    await symlink(join(scratch, 'data', 'projects'), linkIntoData).catch(() => undefined);
    // …and a dangling link that would lead into it once the path is made.
    const danglingIntoData = join(scratch, 'looks-outside-too');
    await symlink(join(scratch, 'data', 'not-yet'), danglingIntoData).catch(() => undefined);
    for (const [url, rule] of [
      [`https://user:${TOKEN}@example.com/x.git`, /must not carry a user or password/],
      ['ssh://example.com/x.git', /no other transport/],
      ['ext::sh -c touch% /tmp/x', /spaces|no other transport|URL/],
      [join(scratch, 'data', 'projects'), /data directory/],
      [join(linkIntoData, 'repo.git'), /data directory/],
      [danglingIntoData, /data directory/],
    ] as const) {
      const answer = await call('PUT', '/remotes/bad', { url });
      expect(answer.status).toBe(400);
      expect(answer.body.error.field).toBe('url');
      expect(answer.body.error.message).toMatch(rule);
      expect(answer.body.error.message).not.toContain(TOKEN);
    }
    expect((await call('PUT', '/remotes/Bad!', { url: 'https://example.com/x.git' })).status).toBe(
      400,
    );
    expect((await call('GET', '/remotes')).body.remotes.length).toBe(before);
    const unknown = await call('POST', '/push', { remote: 'nowhere' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toMatchObject({ field: 'remote' });
    const badBranch = await call('POST', '/push', { remote: 'backup', branch: '-delete' });
    expect(badBranch.status).toBe(400);
    expect(badBranch.body.error.field).toBe('branch');
    expect((await call('DELETE', '/remotes/open')).status).toBe(204);
    expect((await call('DELETE', '/remotes/open')).status).toBe(404);
  });

  it('lets only an owner declare remotes once there are accounts, and refuses a path remote then', async () => {
    const passwordHash = await hashPassword('a long enough password');
    const ana = (await createPerson(started.database, { username: 'ana', passwordHash })).person;
    const bruno = (await createPerson(started.database, { username: 'bruno', passwordHash }))
      .person;
    await putMember(started.database, { projectId, personId: ana.id, role: 'owner' });
    await putMember(started.database, { projectId, personId: bruno.id, role: 'member' });
    const tokenOf = async (personId: string) => {
      const { secret, hash } = newSecret(TOKEN_PREFIX);
      await insertApiToken(started.database, { personId, name: 'api', secretHash: hash });
      return { authorization: `Bearer ${secret}` };
    };
    const [asAna, asBruno] = [await tokenOf(ana.id), await tokenOf(bruno.id)];
    let status = 200;
    for (let tries = 0; tries < 200 && status !== 401; tries += 1) {
      status = (await requestJson(started.forja, 'GET', '/api/projects')).status;
      if (status !== 401) await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const path = `/api/projects/${projectId}`;
    const url = `${gitServer.url}/app.git`;
    const member = await requestJson(
      started.forja,
      'PUT',
      `${path}/remotes/mine`,
      { url },
      asBruno,
    );
    expect(member.status).toBe(403);
    expect(member.body.error.code).toBe('not_owner');
    const owner = await requestJson(started.forja, 'PUT', `${path}/remotes/mine`, { url }, asAna);
    expect(owner.status).toBe(200);
    const hostPath = await requestJson(
      started.forja,
      'PUT',
      `${path}/remotes/disk`,
      { url: join(scratch, 'elsewhere.git') },
      asAna,
    );
    expect(hostPath.status).toBe(422);
    expect(hostPath.body.error.field).toBe('url');
    // A path remote declared before the accounts is not pushed to now.
    const backup = await requestJson(
      started.forja,
      'POST',
      `${path}/push`,
      { remote: 'backup' },
      asBruno,
    );
    expect(backup.status).toBe(422);
    // A member pushes to a remote the owner declared.
    const pushed = await requestJson(
      started.forja,
      'POST',
      `${path}/push`,
      { remote: 'secure' },
      asBruno,
    );
    expect(pushed.status).toBe(200);
  });
});
