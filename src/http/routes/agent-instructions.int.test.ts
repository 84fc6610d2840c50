import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Forja } from '../../composition.ts';
import { ARTIFACT_PAYLOAD_VERSION } from '../../domain/artifacts/index.ts';
import { testDatabaseEngines } from '../../store/testing/test-databases.ts';
import { requestJson, startTestForja } from '../../testing/forja-harness.ts';

describe.each(testDatabaseEngines())('agent instruction patches on $name', (engine) => {
  let forja: Forja;
  beforeAll(async () => {
    forja = await startTestForja(engine);
  });
  afterAll(() => forja.close());

  const newProject = async () =>
    (await requestJson(forja, 'POST', '/api/projects', { name: 'p' })).body.id as string;

  it('stores the patch, serves it back, and the next load of the instruction files sees it (cache invalidated)', async () => {
    const projectId = await newProject();
    const workspaceDir = mkdtempSync(join(tmpdir(), 'forja-ws-'));
    writeFileSync(join(workspaceDir, 'AGENTS.md'), 'Root: write tests first.');
    const before = await forja.instructionFiles.load({ workspaceDir, projectId, agent: 'po' });
    expect(before.sources.map((source) => source.id)).toEqual(['AGENTS.md']);

    const put = await requestJson(
      forja,
      'PUT',
      `/api/projects/${projectId}/agents/po/instructions`,
      { content: 'Stories in pt-BR.' },
    );
    expect(put).toMatchObject({ status: 200, body: { agent: 'po', content: 'Stories in pt-BR.' } });
    expect(
      await requestJson(forja, 'GET', `/api/projects/${projectId}/agents/po/instructions`),
    ).toMatchObject({ status: 200, body: { content: 'Stories in pt-BR.' } });

    const after = await forja.instructionFiles.load({ workspaceDir, projectId, agent: 'po' });
    expect(after.sources.map((source) => [source.id, source.content])).toEqual([
      ['AGENTS.md', 'Root: write tests first.'],
      ['db:agent_instructions', 'Stories in pt-BR.'],
    ]);
  });

  it('answers an empty patch for an agent that has none, and removes a patch set to empty', async () => {
    const projectId = await newProject();
    expect(
      (await requestJson(forja, 'GET', `/api/projects/${projectId}/agents/dev/instructions`)).body,
    ).toMatchObject({ content: '', updated_at: null });
    await requestJson(forja, 'PUT', `/api/projects/${projectId}/agents/dev/instructions`, {
      content: 'x',
    });
    await requestJson(forja, 'PUT', `/api/projects/${projectId}/agents/dev/instructions`, {
      content: '',
    });
    expect(
      (await requestJson(forja, 'GET', `/api/projects/${projectId}/agents/dev/instructions`)).body
        .content,
    ).toBe('');
  });

  it.each([
    ['an agent outside the roster', 'mystery', { content: 'x' }, 400, 'slug'],
    ['content that is not text', 'po', { content: 42 }, 400, 'content'],
    ['content too long', 'po', { content: 'x'.repeat(64_001) }, 400, 'content'],
    ['an unknown field', 'po', { content: 'x', priority: 1 }, 400, 'priority'],
  ])('refuses %s', async (_name, slug, body, status, field) => {
    const projectId = await newProject();
    const response = await requestJson(
      forja,
      'PUT',
      `/api/projects/${projectId}/agents/${slug}/instructions`,
      body,
    );
    expect(response).toMatchObject({ status, body: { error: { field } } });
    expect(
      (
        await forja.database.query('select 1 from agent_instructions where project_id = $1', [
          projectId,
        ])
      ).rows,
    ).toEqual([]);
  });

  it('stores a patch for dev:<module> of the current map, and refuses an unknown slug naming the valid ones', async () => {
    const projectId = await newProject();
    const refusedBeforeMap = await requestJson(
      forja,
      'PUT',
      `/api/projects/${projectId}/agents/dev:pedidos/instructions`,
      { content: 'x' },
    );
    expect(refusedBeforeMap).toMatchObject({
      status: 400,
      body: {
        error: {
          field: 'slug',
          message: expect.stringContaining('no dev:<module> (the project has no module map yet)'),
        },
      },
    });
    const session = await requestJson(forja, 'POST', `/api/projects/${projectId}/sessions`, {});
    const map = {
      version: 1,
      modules: [
        { name: 'pedidos', stack: 'TS', responsibility: 'Pedidos.' },
        { name: 'catalogo', stack: 'TS', responsibility: 'Catálogo.' },
      ],
    };
    const appended = await forja.eventLog.append(session.body.id, [
      {
        type: 'artifact.module_map',
        actor: 'arquiteto',
        payload: { v: ARTIFACT_PAYLOAD_VERSION, data: map },
      },
    ]);
    expect(appended.success).toBe(true);

    const put = await requestJson(
      forja,
      'PUT',
      `/api/projects/${projectId}/agents/dev:pedidos/instructions`,
      { content: 'Centavos, sempre.' },
    );
    expect(put).toMatchObject({
      status: 200,
      body: { agent: 'dev:pedidos', content: 'Centavos, sempre.' },
    });
    const workspaceDir = mkdtempSync(join(tmpdir(), 'forja-ws-'));
    const loaded = await forja.instructionFiles.load({
      workspaceDir,
      projectId,
      agent: 'dev:pedidos',
    });
    expect(loaded.sources.map((source) => [source.id, source.content])).toEqual([
      ['db:agent_instructions', 'Centavos, sempre.'],
    ]);

    const unknown = await requestJson(
      forja,
      'PUT',
      `/api/projects/${projectId}/agents/dev:estoque/instructions`,
      { content: 'x' },
    );
    expect(unknown).toMatchObject({
      status: 400,
      body: { error: { code: 'invalid_field', field: 'slug' } },
    });
    expect(unknown.body.error.message).toBe(
      'slug: unknown agent "dev:estoque"; expected one of criativo, po, arquiteto, dev, psicologo, anamnese, or dev:pedidos, dev:catalogo.',
    );
    expect(
      (
        await requestJson(
          forja,
          'GET',
          `/api/projects/${projectId}/agents/dev:estoque/instructions`,
        )
      ).status,
    ).toBe(400);
  });

  it('answers 404 for an unknown project', async () => {
    const response = await requestJson(
      forja,
      'PUT',
      '/api/projects/00000000-0000-4000-8000-000000000000/agents/po/instructions',
      { content: 'x' },
    );
    expect(response.status).toBe(404);
  });
});
