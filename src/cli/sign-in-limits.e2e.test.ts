import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { killStartedServers, startServer, writeScript } from './testing/forja-serve.ts';
import { scratchServerDatabase } from './testing/server-database.ts';

const FORJA_BIN = new URL('../../bin/forja.ts', import.meta.url).pathname;
const PASSWORD = 'a long enough password';

afterEach(killStartedServers);

/** `forja user add NAME`, the password on stdin; resolves to its exit code. */
function addUser(name: string, env: Record<string, string>): Promise<number | null> {
  const child = spawn(process.execPath, [FORJA_BIN, 'user', 'add', name], {
    env: { ...process.env, ...env },
    stdio: ['pipe', 'ignore', 'ignore'],
  });
  child.stdin!.end(`${PASSWORD}\n`);
  return new Promise((resolve) => child.once('exit', resolve));
}

/** A sign-in over real TCP from `fromAddress` (a loopback address of its own: another client). */
function signIn(
  url: string,
  fromAddress: string,
  password: string,
): Promise<{ status: number; retryAfter: number | null }> {
  const body = JSON.stringify({ username: 'ana', password });
  return new Promise((resolve, reject) => {
    const outgoing = request(
      `${url}/api/auth/sign-in`,
      {
        method: 'POST',
        localAddress: fromAddress,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (response) => {
        response.resume();
        response.on('end', () =>
          resolve({
            status: response.statusCode!,
            retryAfter:
              response.headers['retry-after'] === undefined
                ? null
                : Number(response.headers['retry-after']),
          }),
        );
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

const serverUrl = process.env.DATABASE_URL;
describe.each(serverUrl ? [serverUrl] : [])(
  'sign-in limits across two forja serve on one PostgreSQL server',
  { timeout: 240_000 },
  (server) => {
    const env = { DATABASE_URL: scratchServerDatabase(server) };
    const dataDirectory = mkdtempSync(join(tmpdir(), 'forja-sign-in-'));

    it('slows the guessing address on both processes, and lets the owner in from another address', async () => {
      expect(await addUser('ana', { ...env, FORJA_DATA_DIR: dataDirectory })).toBe(0);
      const script = writeScript([]);
      const first = await startServer(dataDirectory, script, env);
      const second = await startServer(dataDirectory, script, env);

      // Ten wrong passwords through the first process, waiting out each backoff (1 + 2 + 4 + 8 s).
      let wrong = 0;
      while (wrong < 10) {
        const answer = await signIn(first.url, '127.0.0.3', `guess ${wrong}`);
        if (answer.status === 401) wrong += 1;
        else {
          expect(answer.status).toBe(429);
          await new Promise((resolve) => setTimeout(resolve, answer.retryAfter! * 1000));
        }
      }
      // The second process counts them too: the guessing address waits there as well, even with the right password.
      const slowed = await signIn(second.url, '127.0.0.3', PASSWORD);
      expect(slowed.status).toBe(429);
      expect(slowed.retryAfter).toBeGreaterThan(0);
      // The owner, from another address, is not locked out on either process.
      expect((await signIn(second.url, '127.0.0.4', PASSWORD)).status).toBe(200);
      expect((await signIn(first.url, '127.0.0.4', PASSWORD)).status).toBe(200);
    });
  },
);
