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
import { createForja, type Forja } from '../../src/composition.ts';
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

/** ADR 0430's pinned prompt (today), or each call's prompt as assembled (before it). */
type Layout = 'pinned' | 'fresh';

type Call = { request: ModelRequest; output: number };

/** Records every request a provider is sent, with the output tokens it answered. */
function recording(inner: ModelProvider, calls: Call[]): ModelProvider {
  return {
    name: inner.name,
    model: inner.model,
    async *stream(request, options) {
      const call = { request, output: 0 };
      calls.push(call);
      for await (const part of inner.stream(request, options)) {
        if (part.type === 'usage') call.output = part.outputTokens;
        yield part;
      }
    },
  };
}

/** Forja on PGlite in a new data directory, its model the given provider; `play` drives one session. */
async function withForja(
  provider: ModelProvider,
  layout: Layout,
  play: (forja: Forja, session: string) => Promise<void>,
): Promise<void> {
  const dataDirectory = await mkdtemp(join(tmpdir(), 'forja-demo-cost-'));
  const loaded = loadConfig({ FORJA_DATA_DIR: dataDirectory });
  if (!loaded.ok) throw new Error(loaded.error.message);
  const database = await testDatabaseEngines({})[0]!.open();
  const forja = await createForja(loaded.config, pino({ level: 'silent' }), {
    env: {},
    database,
    provider,
    promptLayout: layout,
  });
  const project = (await requestJson(forja, 'POST', '/api/projects', { name: 'Padaria' })).body.id;
  const session = (
    await requestJson(forja, 'POST', `/api/projects/${project}/sessions`, { title: 'A linha' })
  ).body.id;
  await play(forja, session);
  await forja.close();
  await database.close();
  await rm(dataDirectory, { recursive: true, force: true });
}

/** The production-line demo as docs/getting-started.md walks it, up to the devs' work. */
async function playDemo(layout: Layout): Promise<Call[]> {
  const calls: Call[] = [];
  await withForja(
    recording(loadScriptedProvider(script), calls),
    layout,
    async (forja, session) => {
      const accept = async (toAgent: string) => {
        const { handoffs } = (await requestJson(forja, 'GET', `/api/sessions/${session}/handoffs`))
          .body;
        const offered = handoffs.find(
          (h: { to_agent: string; status: string }) =>
            h.to_agent === toAgent && h.status === 'offered',
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
    },
  );
  return calls;
}

const CONVERSATION_MESSAGES = 20;

/**
 * A 20-message conversation with Criativo. Its model answers each message in two sentences and, on every third,
 * records a business rule citing that message (`[#seq]`), then answers the tool's result: 27 calls.
 */
async function playConversation(layout: Layout): Promise<Call[]> {
  const calls: Call[] = [];
  await withForja(recording(conversationModel(), calls), layout, async (forja, session) => {
    await requestJson(forja, 'POST', `/api/sessions/${session}/agents/criativo/start`);
    await forja.conversation.idle(session);
    for (let index = 1; index <= CONVERSATION_MESSAGES; index++) {
      const text = `Mensagem ${index}: mais um detalhe da padaria, como os clientes pedem e quando o pão sai do forno.`;
      await requestJson(forja, 'POST', `/api/sessions/${session}/messages`, { text });
      await forja.conversation.idle(session);
    }
  });
  return calls;
}

function conversationModel(): ModelProvider {
  let rules = 0;
  return {
    name: 'scripted',
    model: 'conversation',
    async *stream(request) {
      const last = request.messages.findLast((message) => message.role !== 'assistant');
      const cited = /\[#(\d+)\] Mensagem (\d+)/.exec(last?.role === 'user' ? last.content : '');
      const text = 'Entendi. Conte mais: quem compra, quando e quanto custa cada pão?';
      yield { type: 'text-delta', text };
      if (cited !== null && Number(cited[2]) % 3 === 0) {
        rules += 1;
        const rule = {
          type: 'business_rule',
          data: {
            title: `Regra ${rules}`,
            statement: `Regra ${rules}: o pão da fornada ${rules} sai antes das ${4 + (rules % 3)}h e é entregue no mesmo dia.`,
          },
          origin: [Number(cited[1])],
        };
        yield {
          type: 'tool-call',
          id: `rule-${rules}`,
          name: 'emit_artifact',
          rawArguments: JSON.stringify(rule),
          arguments: rule,
        };
      }
      yield { type: 'usage', inputTokens: 0, outputTokens: 20, estimated: true };
      yield {
        type: 'finish',
        reason: cited !== null && Number(cited[2]) % 3 === 0 ? 'tool_calls' : 'stop',
      };
    },
  };
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

interface Measured {
  rows: Row[];
  /** Share of input bytes repeating a prefix of an earlier request of the same lane. */
  laneRepeated: number;
  /** Share repeating a prefix of any earlier request (Anthropic's cache is shared across lanes). */
  anyRepeated: number;
  /** Share of input bytes in each lane's first request, which no layout can repeat within the lane. */
  firstRequests: number;
  /**
   * The most any layout could repeat in lane: all but each lane's first request and the messages each call adds
   * to its lane's history since the call before.
   */
  ceiling: number;
}

/** The requests in the order they were sent, measured in cache order against every earlier one. */
function measure(calls: readonly Call[]): Measured {
  const earlier: Array<{ agent: string; text: string }> = [];
  let total = 0;
  let lane = 0;
  let any = 0;
  let first = 0;
  let added = 0;
  const historyBytes = new Map<string, number>();
  const rows = calls.map(({ request, output }) => {
    const text = cacheOrder(request);
    let inLane = 0;
    let anywhere = 0;
    for (const before of earlier) {
      const common = commonPrefix(before.text, text);
      anywhere = Math.max(anywhere, common);
      if (before.agent === request.agent) inLane = Math.max(inLane, common);
    }
    if (!earlier.some((before) => before.agent === request.agent)) first += text.length;
    const history = JSON.stringify(
      request.messages.filter(
        (message) => message.role !== 'user' || message.contextUpdate !== true,
      ),
    ).length;
    const before = historyBytes.get(request.agent);
    if (before !== undefined) added += Math.max(0, history - before);
    historyBytes.set(request.agent, history);
    earlier.push({ agent: request.agent, text });
    total += text.length;
    lane += inLane;
    any += anywhere;
    return { input: tokens(text), prefix: tokens(text.slice(0, inLane)), output };
  });
  const pct = (part: number) => Math.round((1000 * part) / total) / 10;
  return {
    rows,
    laneRepeated: pct(lane),
    anyRepeated: pct(any),
    firstRequests: pct(first),
    ceiling: Math.round(1000 - (1000 * (first + added)) / total) / 10,
  };
}

const PRICED = [
  ['anthropic', 'claude-sonnet-4-5'],
  ['openai', 'gpt-4.1'],
] as const;

function reportRow(play: string, layout: Layout, measured: Measured) {
  const { rows } = measured;
  const costs = Object.fromEntries(
    PRICED.flatMap(([provider, model]) => {
      const price = priceFor(BUILT_IN_PRICES, provider, model)!;
      const full = lineCost(rows, price, provider, false);
      const cached = lineCost(rows, price, provider, true);
      return [
        [`usd_${provider}_cached`, Math.round(cached * 10_000) / 10_000],
        [`${provider}_saving_pct`, Math.round((1000 * (full - cached)) / full) / 10],
      ];
    }),
  );
  return {
    play,
    layout,
    calls: rows.length,
    input_tokens: rows.reduce((sum, row) => sum + row.input, 0),
    repeated_in_lane_pct: measured.laneRepeated,
    repeated_any_pct: measured.anyRepeated,
    first_requests_pct: measured.firstRequests,
    ceiling_in_lane_pct: measured.ceiling,
    calls_cacheable: rows.filter((row) => row.prefix >= 1024).length,
    ...costs,
  };
}

/** Plays the demo line and the conversation under each layout, in turn, and prices their requests. */
export async function run(): Promise<BenchReport> {
  const rows = [];
  for (const [play, played] of [
    ['demo line', playDemo],
    ['criativo, 20 messages', playConversation],
  ] as const)
    for (const layout of ['fresh', 'pinned'] as const)
      rows.push(reportRow(play, layout, measure(await played(layout))));
  return {
    name: 'demo-line-cost',
    rows,
    notes: [
      'The production-line demo up to the devs, and a 20-message Criativo conversation recording a business rule every third message, on PGlite; every request as the gateway sends it, in cache order (tools, system, messages). Byte counts are deterministic: one play per layout.',
      "layout fresh: each call's system prompt as assembled (before ADR 0430); pinned: the lane's pinned prompt, what changed in it sent after the history (ADR 0430).",
      "repeated_in_lane_pct: share of input bytes repeating a prefix of an earlier request of the same lane (OpenAI's prompt_cache_key is per lane); repeated_any_pct: of any earlier request (Anthropic's cache is shared by every request with the same prefix); first_requests_pct: each lane's first request, which repeats nothing in its lane under any layout; ceiling_in_lane_pct: the most any layout could repeat in lane (all but the first requests and the messages each call adds to its lane's history).",
      "calls_cacheable: calls whose repeated prefix reaches the providers' 1024-token minimum. Costs at the built-in list prices, cached in lane; Anthropic writes what is not read (1.25×) and reads the prefix (0.1×), OpenAI reads it in 128-token steps.",
    ],
  };
}
