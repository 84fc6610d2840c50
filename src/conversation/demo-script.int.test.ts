import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Forja } from '../composition.ts';
import { loadScriptedProvider } from '../gateway/providers/index.ts';
import { testDatabaseEngines } from '../store/testing/test-databases.ts';
import { requestJson, startTestForja } from '../testing/forja-harness.ts';
import { newSessionThroughApi } from '../testing/scripted-forja.ts';

const DEMO_SCRIPT = new URL('../../examples/criativo-demo.json', import.meta.url).pathname;

/** The README's demo (`FORJA_MODEL=scripted:examples/criativo-demo.json`) must keep working as written. */
describe('the demo script shipped in examples/', () => {
  const [pglite] = testDatabaseEngines({});
  let forja: Forja;
  beforeAll(async () => {
    forja = await startTestForja(pglite!, { provider: loadScriptedProvider(DEMO_SCRIPT) });
  });
  afterAll(() => forja.close());

  it('plays the whole Criativo flow: two answers, a business rule, a brief and a handoff to the PO', async () => {
    const { sessionId } = await newSessionThroughApi(forja);
    await requestJson(forja, 'POST', `/api/sessions/${sessionId}/agents/criativo/start`);
    await requestJson(forja, 'POST', `/api/sessions/${sessionId}/messages`, { text: 'Quero vender pão de madrugada por assinatura.' });
    await forja.conversation.idle(sessionId);
    await requestJson(forja, 'POST', `/api/sessions/${sessionId}/messages`, { text: 'Para os vizinhos, sempre antes das 6h.' });
    await forja.conversation.idle(sessionId);
    const ready = await requestJson(forja, 'POST', `/api/sessions/${sessionId}/readiness`);
    expect(ready).toMatchObject({ status: 201, body: { handoff: { to_agent: 'po', status: 'offered' } } });
    const state = await requestJson(forja, 'GET', `/api/sessions/${sessionId}/state`);
    expect(state.body.business_rules).toEqual([expect.objectContaining({ title: 'Entrega antes das 6h', origin: [6] })]);
    expect(state.body.product_brief.data.title).toBe('Padaria do amanhecer');
  });
});

describe('the production-line demo shipped in examples/', () => {
  it('is exactly the script the production-line test plays end to end', async () => {
    const { readFileSync } = await import('node:fs');
    const { UP_TO_ARQUITETO, ARQUITETO, DEVS } = await import('./testing/production-line-script.ts');
    const shipped = JSON.parse(readFileSync(new URL('../../examples/production-line-demo.json', import.meta.url), 'utf8'));
    expect(shipped).toEqual({ turns: [...UP_TO_ARQUITETO, ...ARQUITETO, ...DEVS] });
  });
});
