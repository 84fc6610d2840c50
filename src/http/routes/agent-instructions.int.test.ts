import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Forja } from '../../composition.ts';
import { testDatabaseEngines } from '../../store/testing/test-databases.ts';
import { requestJson, startTestForja } from '../../testing/forja-harness.ts';

describe.each(testDatabaseEngines())('agent instruction patches on $name', (engine) => {
  let forja: Forja;
  beforeAll(async () => {
    forja = await startTestForja(engine);
  });
  afterAll(() => forja.close());

  const newProject = async () => (await requestJson(forja, 'POST', '/api/projects', { name: 'p' })).body.id as string;

  it('stores the patch, serves it back, and the next load of the instruction files sees it (cache invalidated)', async () => {
    const projectId = await newProject();
    const workspaceDir = mkdtempSync(join(tmpdir(), 'forja-ws-'));
    writeFileSync(join(workspaceDir, 'AGENTS.md'), 'Root: write tests first.');
    const before = await forja.instructionFiles.load({ workspaceDir, projectId, agent: 'po' });
    expect(before.sources.map((source) => source.id)).toEqual(['AGENTS.md']);

    const put = await requestJson(forja, 'PUT', `/api/projects/${projectId}/agents/po/instructions`, { content: 'Stories in pt-BR.' });
    expect(put).toMatchObject({ status: 200, body: { agent: 'po', content: 'Stories in pt-BR.' } });
    expect(await requestJson(forja, 'GET', `/api/projects/${projectId}/agents/po/instructions`)).toMatchObject({ status: 200, body: { content: 'Stories in pt-BR.' } });

    const after = await forja.instructionFiles.load({ workspaceDir, projectId, agent: 'po' });
    expect(after.sources.map((source) => [source.id, source.content])).toEqual([
      ['AGENTS.md', 'Root: write tests first.'],
      ['db:agent_instructions', 'Stories in pt-BR.'],
    ]);
  });

  it('answers an empty patch for an agent that has none, and removes a patch set to empty', async () => {
    const projectId = await newProject();
    expect((await requestJson(forja, 'GET', `/api/projects/${projectId}/agents/dev/instructions`)).body).toMatchObject({ content: '', updated_at: null });
    await requestJson(forja, 'PUT', `/api/projects/${projectId}/agents/dev/instructions`, { content: 'x' });
    await requestJson(forja, 'PUT', `/api/projects/${projectId}/agents/dev/instructions`, { content: '' });
    expect((await requestJson(forja, 'GET', `/api/projects/${projectId}/agents/dev/instructions`)).body.content).toBe('');
  });

  it.each([
    ['an agent outside the roster', 'mystery', { content: 'x' }, 400, 'slug'],
    ['content that is not text', 'po', { content: 42 }, 400, 'content'],
    ['content too long', 'po', { content: 'x'.repeat(64_001) }, 400, 'content'],
    ['an unknown field', 'po', { content: 'x', priority: 1 }, 400, 'priority'],
  ])('refuses %s', async (_name, slug, body, status, field) => {
    const projectId = await newProject();
    const response = await requestJson(forja, 'PUT', `/api/projects/${projectId}/agents/${slug}/instructions`, body);
    expect(response).toMatchObject({ status, body: { error: { field } } });
    expect((await forja.database.query('select 1 from agent_instructions where project_id = $1', [projectId])).rows).toEqual([]);
  });

  it('answers 404 for an unknown project', async () => {
    const response = await requestJson(forja, 'PUT', '/api/projects/00000000-0000-4000-8000-000000000000/agents/po/instructions', { content: 'x' });
    expect(response.status).toBe(404);
  });
});
