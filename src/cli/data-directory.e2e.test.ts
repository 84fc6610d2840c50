import { mkdtempSync, renameSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { scratchServerDatabase } from './testing/server-database.ts';
import {
  call,
  killStartedServers,
  type RunningForja,
  startServer,
  writeScript,
} from './testing/forja-serve.ts';

afterEach(killStartedServers);

const newDirectory = (name: string) => join(mkdtempSync(join(tmpdir(), 'forja-dirs-')), name);

async function stop(forja: RunningForja): Promise<void> {
  forja.process.kill('SIGTERM');
  expect(await forja.exited).toBe(0);
}

async function projectNames(forja: RunningForja): Promise<string[]> {
  const listed = await call(`${forja.url}/api/projects`, 'GET');
  return (listed['projects'] as Array<{ name: string }>).map((project) => project.name);
}

describe('the data directory of a database', { timeout: 240_000 }, () => {
  const script = writeScript([]);

  it('on embedded PGlite, follows the directory moved whole to another path', async () => {
    const original = newDirectory('data');
    const first = await startServer(original, script);
    await call(`${first.url}/api/projects`, 'POST', { name: 'Padaria' });
    await stop(first);
    const moved = newDirectory('moved');
    renameSync(original, moved);
    const again = await startServer(moved, script);
    expect(await projectNames(again)).toEqual(['Padaria']);
    await stop(again);
  });

  const serverUrl = process.env.DATABASE_URL;
  if (serverUrl)
    describe('on the PostgreSQL server', () => {
      const databaseUrl = scratchServerDatabase(serverUrl);
      const env = { DATABASE_URL: databaseUrl };

      it('refuses to start a process on another data directory than its projects', async () => {
        const shared = newDirectory('data');
        const first = await startServer(shared, script, env);
        await call(`${first.url}/api/projects`, 'POST', { name: 'Padaria' });

        const elsewhere = newDirectory('other');
        const refused = startServer(elsewhere, script, env);
        await expect(refused).rejects.toThrow('forja serve exited with 2 before listening');
        await expect(refused).rejects.toThrow(
          `this database's projects keep their repositories in the data directory ${shared} on `,
        );
        await expect(refused).rejects.toThrow(`FORJA_DATA_DIR=${elsewhere} is another directory`);

        // A second process on the same directory (a shared mount, on another machine) serves the same projects.
        const second = await startServer(shared, script, env);
        expect(await projectNames(second)).toEqual(['Padaria']);
        await stop(second);
        await stop(first);

        // A deliberate move: every process stopped, the whole directory moved, started at its new path.
        const moved = newDirectory('moved');
        renameSync(shared, moved);
        const afterMove = await startServer(moved, script, env);
        expect(await projectNames(afterMove)).toEqual(['Padaria']);
        await expect(startServer(shared, script, env)).rejects.toThrow(
          `keep their repositories in the data directory ${moved} on `,
        );
        await stop(afterMove);
      });
    });
});
