import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { hashSecret } from '../accounts/secrets.ts';
import { findPersonByTokenHash, openDatabase } from '../store/index.ts';
import { runCli } from './main.ts';

describe('forja user add, forja token create | list | revoke, and serve beyond loopback', {
  timeout: 120_000,
}, () => {
  const dataDirectory = mkdtempSync(join(tmpdir(), 'forja-accounts-'));
  afterAll(() => rmSync(dataDirectory, { recursive: true, force: true }));

  async function forja(
    argv: string[],
    options: { stdin?: string; env?: Record<string, string> } = {},
  ) {
    let stdout = '';
    let stderr = '';
    const code = await runCli(argv, {
      stdout: (text) => {
        stdout += text;
      },
      stderr: (text) => {
        stderr += text;
      },
      env: { FORJA_DATA_DIR: dataDirectory, LOG_LEVEL: 'silent', ...options.env },
      ...(options.stdin === undefined ? {} : { stdin: async () => options.stdin! }),
    });
    return { code, stdout, stderr };
  }

  it('refuses to serve on 0.0.0.0 while no account exists, with exit code 2 naming what to configure', async () => {
    const refused = await forja(['serve'], { env: { HOST: '0.0.0.0', PORT: '0' } });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('HOST=0.0.0.0 is not a loopback address');
    expect(refused.stderr).toContain('forja user add NAME');
    expect(refused.stderr).toContain('FORJA_PUBLIC_URL');
  });

  it('creates an account from a password on stdin, refusing a short password and a taken or malformed name', async () => {
    expect(await forja(['user', 'add', 'ana'], { stdin: 'short\n' })).toMatchObject({
      code: 2,
      stderr: 'forja: user add: the password must be at least 12 characters.\n',
    });
    expect(
      await forja(['user', 'add', 'Ana Maria'], { stdin: 'long enough password\n' }),
    ).toMatchObject({ code: 2, stderr: expect.stringContaining('name must be') });
    const created = await forja(['user', 'add', 'ana'], { stdin: 'long enough password\n' });
    expect(created).toMatchObject({
      code: 0,
      stdout: expect.stringMatching(/^Created ana \([0-9a-f-]{36}\)\.\n$/),
    });
    expect(await forja(['user', 'add', 'ana'], { stdin: 'another long password\n' })).toMatchObject(
      { code: 2, stderr: expect.stringContaining('already an account named ana') },
    );
  });

  it('prints a token once, stores only its hash, lists it and revokes it', async () => {
    const created = await forja(['token', 'create', '--user', 'ana', '--name', 'ci']);
    expect(created.code).toBe(0);
    const token = created.stdout.trim();
    expect(token).toMatch(/^forja_[\w-]{43}$/);
    const id = /Token ([0-9a-f-]{36})/.exec(created.stderr)![1]!;
    const listed = await forja(['token', 'list', '--user', 'ana']);
    expect(listed.stdout).toMatch(new RegExp(`^${id}\\tci\\t\\S+\\tactive\\n$`));

    const database = await openDatabase({ databaseUrl: undefined, dataDirectory });
    try {
      const stored = await database.query<{ secret_hash: string }>(
        'select secret_hash from api_tokens',
      );
      expect(stored.rows).toEqual([{ secret_hash: hashSecret(token) }]);
      expect(await findPersonByTokenHash(database, hashSecret(token))).toMatchObject({
        username: 'ana',
      });
    } finally {
      await database.close();
    }
    expect(await forja(['token', 'revoke', id])).toMatchObject({
      code: 0,
      stdout: `Revoked ${id}.\n`,
    });
    expect(await forja(['token', 'revoke', id])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('no active token'),
    });
    expect(await forja(['token', 'create', '--user', 'nobody'])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('no account named nobody'),
    });
  });
});
