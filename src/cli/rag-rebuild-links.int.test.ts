import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import type { Forja } from '../composition.ts';
import { startMemoryForja } from '../memory/testing/start-memory-forja.ts';
import { testDatabaseEngines } from '../store/testing/test-databases.ts';
import { requestJson } from '../testing/forja-harness.ts';
import { createProjectWorkspaces } from '../workspace/index.ts';
import { runRagRebuildCommand } from './rag-command.ts';

const SECRET = 'FORJA_TEST_KEY=zebraxilofone-segredo-do-host';

describe.each(testDatabaseEngines())('forja rag rebuild and a planted link on $name', (engine) => {
  let forja: Forja | undefined;
  let outside: string | undefined;
  afterEach(async () => {
    await forja?.close();
    if (outside) await rm(outside, { recursive: true, force: true });
    forja = undefined;
  });

  it("indexes the repository's own documents and never a host file a link points to: not searchable", async () => {
    const started = await startMemoryForja(engine);
    forja = started.forja;
    outside = await mkdtemp(join(tmpdir(), 'forja-host-'));
    const secretFile = join(outside, 'credentials.env');
    await writeFile(secretFile, `${SECRET}\n`);
    const project = await requestJson(forja, 'POST', '/api/projects', { name: 'Padaria' });
    const projectId = project.body.id as string;
    // As a hostile dev would leave it: README.md a link to a host file; docs/ holding a real note.
    const workspace = await createProjectWorkspaces({
      dataDirectory: started.dataDirectory,
    }).ensureWorkspace(projectId);
    await rm(join(workspace, 'README.md'), { force: true });
    await symlink(secretFile, join(workspace, 'README.md'));
    await mkdir(join(workspace, 'docs'), { recursive: true });
    await writeFile(
      join(workspace, 'docs', 'notas.md'),
      '# Notas\n\nO abacaxi chega às terças-feiras.\n',
    );

    const output: string[] = [];
    const code = await runRagRebuildCommand(
      forja.database,
      { dataDirectory: started.dataDirectory },
      {},
      pino({ level: 'silent' }),
      { stdout: (text) => void output.push(text), stderr: (text) => void output.push(text) },
    );
    expect(code).toBe(0);
    const search = (query: string) =>
      requestJson(forja!, 'POST', `/api/projects/${projectId}/rag/search`, { query, k: 10 });
    // The repository's own document was indexed (so the search works here)...
    const own = await search('abacaxi terças');
    expect(JSON.stringify(own.body.hits)).toContain('abacaxi');
    // ...and the host file behind the link was not: its text comes back from no search.
    for (const query of ['zebraxilofone segredo do host', 'FORJA_TEST_KEY'])
      expect(JSON.stringify((await search(query)).body)).not.toContain('zebraxilofone');
    expect(await readFile(secretFile, 'utf8')).toBe(`${SECRET}\n`);
  });
});
