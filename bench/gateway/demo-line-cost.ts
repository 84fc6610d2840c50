/**
 * Measurement: what the production-line demo (examples/production-line-demo.json) would cost at list prices, with
 * and without the prompt cache. The demo is played as docs/getting-started.md walks it; every request the gateway
 * sends is recorded and laid out in the providers' cache order (tools, system, messages). A request's cached part
 * is its longest prefix in common with an earlier request of its lane (the rolling breakpoint), counted when it
 * reaches the provider's minimum (1024 tokens; OpenAI in 128-token steps). Tokens are ceil(bytes / 4).
 * Run: npm run bench -- demo-line-cost
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { createForja } from '../../src/composition.ts';
import { loadConfig } from '../../src/config/config.ts';
import {
  BUILT_IN_PRICES,
  callCostUsd,
  priceFor,
  type ModelPrice,
} from '../../src/gateway/metering/prices/price-table.ts';
import {
  loadScriptedProvider,
  type ModelProvider,
  type ModelRequest,
} from '../../src/gateway/providers/index.ts';
import { testDatabaseEngines } from '../../src/store/testing/test-databases.ts';
import { requestJson } from '../../src/testing/forja-harness.ts';
import type { BenchReport } from '../lib/bench-report.ts';

const script = new URL('../../examples/production-line-demo.json', import.meta.url).pathname;

async function playDemo(): Promise<Array<{ request: ModelRequest; output: number }>> {
  const calls: Array<{ request: ModelRequest; output: number }> = [];
  const scripted = loadScriptedProvider(script);
  const provider: ModelProvider = {
    name: scripted.name,
    model: scripted.model,
    async *stream(request, options) {
      const call = { request, output: 0 };
      calls.push(call);
      for await (const part of scripted.stream(request, options)) {
        if (part.type === 'usage') call.output = part.outputTokens;
        yield part;
      }
    },
  };
  const dataDirectory = await mkdtemp(join(tmpdir(), 'forja-demo-cost-'));
  const loaded = loadConfig({ FORJA_DATA_DIR: dataDirectory });
  if (!loaded.ok) throw new Error(loaded.error.message);
  const database = await testDatabaseEngines({})[0]!.open();
  const forja = await createForja(loaded.config, pino({ level: 'silent' }), {
    env: {},
    database,
    provider,
  });
  const project = (await requestJson(forja, 'POST', '/api/projects', { name: 'Padaria' })).body.id;
  const session = (
    await requestJson(forja, 'POST', `/api/projects/${project}/sessions`, { title: 'A linha' })
  ).body.id;
  const accept = async (toAgent: string) => {
    const { handoffs } = (await requestJson(forja, 'GET', `/api/sessions/${session}/handoffs`))
      .body;
    const offered = handoffs.find(
      (h: { to_agent: string; status: string }) => h.to_agent === toAgent && h.status === 'offered',
    );
    await requestJson(forja, 'POST', `/api/handoffs/${offered.id}/accept`);
    await forja.conversation.idle(session);
  };
  await requestJson(forja, 'POST', `/api/sessions/${session}/agents/criativo/start`);
  for (const text of [
    'Quero vender pão de madrugada, entregue antes das 6h.',
    'Para os vizinhos do bairro.',
  ]) {
    await requestJson(forja, 'POST', `/api/sessions/${session}/messages`, { text });
    await forja.conversation.idle(session);
  }
  await requestJson(forja, 'POST', `/api/sessions/${session}/readiness?wait=true`);
  await accept('po');
  await accept('arquiteto');
  await requestJson(forja, 'POST', `/api/sessions/${session}/dev-handoffs/accept`);
  await forja.conversation.idle(session);
  await forja.close();
  await database.close();
  await rm(dataDirectory, { recursive: true, force: true });
  return calls;
}

/** The request in cache order, as the bytes a provider hashes its prefix over. */
const cacheOrder = (request: ModelRequest) =>
  JSON.stringify(request.tools) + request.system + JSON.stringify(request.messages);

function commonPrefix(left: string, right: string): number {
  let index = 0;
  while (index < left.length && index < right.length && left[index] === right[index]) index++;
  return index;
}

const tokens = (text: string) => Math.ceil(Buffer.byteLength(text) / 4);

type Row = { input: number; prefix: number; output: number };

function lineCost(
  rows: readonly Row[],
  price: ModelPrice,
  provider: 'anthropic' | 'openai',
  cached: boolean,
): number {
  return rows.reduce((sum, row) => {
    let hit = row.prefix >= 1024 ? row.prefix : 0;
    if (provider === 'openai') hit = Math.floor(hit / 128) * 128;
    const usage = !cached
      ? { inputTokens: row.input, outputTokens: row.output }
      : provider === 'anthropic'
        ? {
            inputTokens: row.input,
            outputTokens: row.output,
            cachedInputTokens: hit,
            cacheWriteInputTokens: row.input - hit,
          }
        : { inputTokens: row.input, outputTokens: row.output, cachedInputTokens: hit };
    return sum + callCostUsd(price, usage);
  }, 0);
}

/** Plays the demo once and prices its requests with and without the cache, per model. */
export async function run(): Promise<BenchReport> {
  const calls = await playDemo();
  const seen = new Map<string, string[]>();
  let totalBytes = 0;
  let repeatedBytes = 0;
  const rows: Row[] = calls.map(({ request, output }) => {
    const text = cacheOrder(request);
    const earlier = seen.get(request.agent) ?? [];
    const prefix = Math.max(0, ...earlier.map((before) => commonPrefix(before, text)));
    earlier.push(text);
    seen.set(request.agent, earlier);
    totalBytes += text.length;
    repeatedBytes += prefix;
    return { input: tokens(text), prefix: tokens(text.slice(0, prefix)), output };
  });
  const input = rows.reduce((sum, row) => sum + row.input, 0);
  const output = rows.reduce((sum, row) => sum + row.output, 0);
  const repeated = Math.round((1000 * repeatedBytes) / totalBytes) / 10;
  const reaching = rows.filter((row) => row.prefix >= 1024).length;
  const models = [
    ['anthropic', 'claude-sonnet-4-5'],
    ['openai', 'gpt-4.1'],
    ['openai', 'gpt-5'],
  ] as const;
  return {
    name: 'demo-line-cost',
    rows: models.map(([provider, model]) => {
      const price = priceFor(BUILT_IN_PRICES, provider, model)!;
      const full = lineCost(rows, price, provider, false);
      const cached = lineCost(rows, price, provider, true);
      return {
        model: `${provider}:${model}`,
        calls: rows.length,
        input_tokens: input,
        output_tokens: output,
        repeated_prefix_pct: repeated,
        calls_cacheable: reaching,
        usd_full_price: Math.round(full * 10_000) / 10_000,
        usd_with_cache: Math.round(cached * 10_000) / 10_000,
        saving_pct: Math.round((1000 * (full - cached)) / full) / 10,
      };
    }),
    notes: [
      'The production-line demo up to the devs, on PGlite; every request as the gateway sends it, in cache order (tools, system, messages).',
      "repeated_prefix_pct: share of input bytes repeating a prefix of an earlier request of the same lane; calls_cacheable: calls whose repeated prefix reaches the providers' 1024-token minimum.",
      'Costs at the built-in list prices; with the cache, Anthropic writes what is not read (1.25×) and reads the prefix (0.1×); OpenAI reads it in 128-token steps.',
    ],
  };
}
