import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createForja, type Forja } from '../../composition.ts';
import { loadConfig } from '../../config/config.ts';
import { BUILT_IN_PRICES_AS_OF } from '../../gateway/index.ts';
import { createScriptedProvider } from '../../gateway/providers/index.ts';
import { testDatabaseEngines } from '../../store/testing/test-databases.ts';
import { requestJson } from '../../testing/forja-harness.ts';

describe.each(testDatabaseEngines())(
  'budgets in money and the cost in usage on $name',
  (engine) => {
    let forja: Forja;
    let close: () => Promise<void>;
    let projectId: string;

    beforeAll(async () => {
      const dataDirectory = await mkdtemp(join(tmpdir(), 'forja-usage-'));
      const loaded = loadConfig({ FORJA_DATA_DIR: dataDirectory });
      if (!loaded.ok) throw new Error(loaded.error.message);
      const database = await engine.open();
      forja = await createForja(loaded.config, pino({ level: 'silent' }), {
        env: {},
        database,
        provider: createScriptedProvider({ script: { turns: [] } }),
      });
      close = async () => {
        await forja.close();
        await database.close();
        await rm(dataDirectory, { recursive: true, force: true });
      };
      projectId = (await requestJson(forja, 'POST', '/api/projects', { name: 'Loja' })).body.id;
    });
    afterAll(() => close());

    it('sets a budget in US dollars beside the one in tokens, each left as it is when absent', async () => {
      const budget = `/api/projects/${projectId}/budget`;
      expect(await requestJson(forja, 'PUT', budget, { max_usd: 12.5 })).toMatchObject({
        status: 200,
        body: { max_tokens: null, max_usd: 12.5 },
      });
      expect(await requestJson(forja, 'PUT', budget, { max_tokens: 1000 })).toMatchObject({
        body: { max_tokens: 1000, max_usd: 12.5 },
      });
      expect(await requestJson(forja, 'PUT', budget, { max_usd: null })).toMatchObject({
        body: { max_tokens: 1000, max_usd: null },
      });
      const usage = await requestJson(forja, 'GET', `/api/projects/${projectId}/usage`);
      expect(usage.body).toMatchObject({
        max_tokens: 1000,
        max_usd: null,
        total_cost_usd: 0,
        cached_share: 0,
        by_lane: [],
        prices: `built-in list prices of ${BUILT_IN_PRICES_AS_OF}`,
      });
    });

    it('refuses a budget it cannot use, naming the field and the rule, and stores nothing', async () => {
      const budget = `/api/projects/${projectId}/budget`;
      await requestJson(forja, 'PUT', budget, { max_usd: 3 });
      for (const [body, message] of [
        [{ max_usd: -1 }, /max_usd.*0 or more/],
        [{ max_usd: 'ten' }, /max_usd.*number of US dollars/],
        [{}, /max_tokens, max_usd or both/],
        [{ max_usd: 1, dollars: 1 }, /dollars/],
      ] as const) {
        const answer = await requestJson(forja, 'PUT', budget, body);
        expect(answer.status).toBe(400);
        expect(JSON.stringify(answer.body)).toMatch(message);
      }
      const usage = await requestJson(forja, 'GET', `/api/projects/${projectId}/usage`);
      expect(usage.body.max_usd).toBe(3);
    });
  },
);
