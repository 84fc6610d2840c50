import { afterEach, describe, expect, it } from 'vitest';
import type { Forja } from '../../composition.ts';
import { testDatabaseEngines } from '../../store/testing/test-databases.ts';
import { requestJson, startTestForja } from '../../testing/forja-harness.ts';
import { newSessionThroughApi } from '../../testing/scripted-forja.ts';

const MAP = {
  version: 1,
  modules: [
    { name: 'catalogo', stack: 'TS', responsibility: 'Pães', dependsOn: [] },
    { name: 'pedidos', stack: 'TS', responsibility: 'Pedidos', dependsOn: ['catalogo'] },
    { name: 'entrega', stack: 'TS', responsibility: 'Entrega', dependsOn: ['pedidos'] },
  ],
};
const CONTRACTS = {
  version: 1,
  contratos: [
    { modulo: 'catalogo', expoe: [{ tipo: 'funcao', assinatura: 'listarPaes()' }] },
    { modulo: 'entrega', expoe: [{ tipo: 'evento', assinatura: 'Entregue(pedidoId)' }] },
  ],
};
const MISSING = '00000000-0000-4000-8000-000000000000';

describe.each(testDatabaseEngines())('architecture routes on $name', (engine) => {
  let forja: Forja;
  afterEach(() => forja?.close());

  async function projectWithArchitecture() {
    forja = await startTestForja(engine);
    const { projectId, sessionId } = await newSessionThroughApi(forja);
    await forja.eventLog.append(sessionId, [
      { type: 'artifact.module_map', actor: 'arquiteto', payload: { v: 1, data: MAP } },
      { type: 'artifact.module_contracts', actor: 'arquiteto', payload: { v: 1, data: CONTRACTS } },
    ]);
    return { projectId, sessionId };
  }

  it('reads the contracts as the dev of a module does: its own and what it consumes in full, the rest by name', async () => {
    const { projectId } = await projectWithArchitecture();
    const scoped = await requestJson(
      forja,
      'GET',
      `/api/projects/${projectId}/module-contracts?module=pedidos`,
    );
    expect(scoped.status).toBe(200);
    expect(scoped.body.module).toBe('pedidos');
    expect(scoped.body.text).toContain('- [funcao] listarPaes()');
    expect(scoped.body.text).not.toContain('Entregue(pedidoId)');
    expect(scoped.body.text).toContain('Modules that consume pedidos (by name only): entrega');
    expect(scoped.body.listing).toMatchObject({
      module: 'pedidos',
      moduleInMap: true,
      contractsVersion: 1,
      shownItems: 1,
    });
    const everything = await requestJson(
      forja,
      'GET',
      `/api/projects/${projectId}/module-contracts`,
    );
    expect(everything.body.text).toContain('Entregue(pedidoId)');
  });

  it('validates the module and answers 404 for an unknown project', async () => {
    const { projectId } = await projectWithArchitecture();
    expect(
      await requestJson(forja, 'GET', `/api/projects/${projectId}/module-contracts?module=../etc`),
    ).toMatchObject({ status: 400, body: { error: { code: 'invalid_field', field: 'module' } } });
    expect(
      await requestJson(forja, 'GET', `/api/projects/${MISSING}/module-contracts?module=pedidos`),
    ).toMatchObject({ status: 404, body: { error: { code: 'not_found' } } });
    expect((await requestJson(forja, 'GET', `/api/projects/${MISSING}/architecture`)).status).toBe(
      404,
    );
    expect((await requestJson(forja, 'GET', `/api/projects/${MISSING}/backlog`)).status).toBe(404);
    expect((await requestJson(forja, 'GET', `/api/sessions/${MISSING}/devs`)).status).toBe(404);
    expect((await requestJson(forja, 'POST', `/api/sessions/${MISSING}/kickoffs`)).status).toBe(
      404,
    );
    expect(
      (await requestJson(forja, 'POST', `/api/sessions/${MISSING}/dev-handoffs/accept`)).status,
    ).toBe(404);
  });

  it('shows the current architecture with its versions, the derived container view and where docs/ keeps it', async () => {
    const { projectId, sessionId } = await projectWithArchitecture();
    const body = (await requestJson(forja, 'GET', `/api/projects/${projectId}/architecture`)).body;
    expect(body.module_map).toMatchObject({ version: 1, session_id: sessionId, data: MAP });
    expect(body.c4_container_view.relations).toEqual([
      { from: 'pedidos', to: 'catalogo' },
      { from: 'entrega', to: 'pedidos' },
    ]);
    expect(body.docs.module_contracts).toBe('docs/module-contracts.md');
    expect(body.project_image).toBeNull();
    expect((await requestJson(forja, 'GET', `/api/sessions/${sessionId}/devs`)).body).toEqual({
      devs: [],
    });
    expect(await requestJson(forja, 'POST', `/api/sessions/${sessionId}/kickoffs`)).toMatchObject({
      status: 202,
      body: { queued: true },
    });
    expect(
      (await requestJson(forja, 'POST', `/api/sessions/${sessionId}/dev-handoffs/accept`)).body,
    ).toEqual({ accepted: [] });
  });
});
