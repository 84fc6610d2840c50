import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { createModelHealth } from './model-health.ts';
import type { ModelProbe, ProbeResult } from './providers/config/create-model-probe.ts';

const CONFIGURED = { configured: true as const, provider: 'openai', model: 'llama3.1' };

/** A probe whose answers the test sets, counting the looks; the monitor is under test, not the probe. */
function probeAnswering(first: ProbeResult) {
  let answer = first;
  const probe: ModelProbe & { looks: number } = {
    target: 'http://127.0.0.1:11434/v1/models',
    looks: 0,
    async check() {
      probe.looks += 1;
      await new Promise((resolve) => setTimeout(resolve, 1));
      return answer;
    },
  };
  return { probe, set: (next: ProbeResult) => (answer = next) };
}

function recordingLogger() {
  const lines: Array<{ level: number; msg: string }> = [];
  const logger = pino(
    { level: 'info' },
    {
      write: (line: string) => void lines.push(JSON.parse(line) as { level: number; msg: string }),
    },
  );
  return { logger, lines };
}

describe('model health', () => {
  it('says the model is not configured, with the reason, and never looks', async () => {
    const { logger } = recordingLogger();
    const health = createModelHealth({
      status: { configured: false, message: 'No model configured: set FORJA_MODEL' },
      probe: null,
      logger,
    });
    expect(health.current()).toMatchObject({
      configured: false,
      reachable: false,
      reason: 'No model configured: set FORJA_MODEL',
      target: null,
    });
    expect(await health.check()).toMatchObject({ configured: false });
  });

  it('counts a model with no endpoint (scripted) as reachable', () => {
    const { logger } = recordingLogger();
    const health = createModelHealth({
      status: { configured: true, provider: 'scripted', model: 'demo.json' },
      probe: null,
      logger,
    });
    expect(health.current()).toMatchObject({
      configured: true,
      provider: 'scripted',
      reachable: true,
      reason: null,
    });
  });

  it('is unknown until the first look, then follows the endpoint, logging each change once', async () => {
    const { logger, lines } = recordingLogger();
    const { probe, set } = probeAnswering({
      reachable: false,
      reason: 'http://127.0.0.1:11434/v1/models does not answer (ECONNREFUSED)',
      window: null,
    });
    let now = 1_000_000;
    const health = createModelHealth({ status: CONFIGURED, probe, logger, clock: () => now });
    expect(health.current()).toMatchObject({
      configured: true,
      reachable: null,
      checked_at: null,
      target: probe.target,
    });

    expect(await health.check()).toMatchObject({
      reachable: false,
      reason: expect.stringContaining('ECONNREFUSED'),
      checked_at: new Date(now).toISOString(),
    });
    now += 10_000;
    await health.check();
    expect(lines.filter((line) => line.level === 40).map((line) => line.msg)).toEqual([
      expect.stringMatching(
        /^the model endpoint is not reachable \(.*ECONNREFUSED\)\); Forja keeps running/,
      ),
    ]);

    set({ reachable: true, reason: null, window: null });
    now += 10_000;
    expect(await health.check()).toMatchObject({ reachable: true, reason: null });
    expect(lines.at(-1)).toMatchObject({ level: 30, msg: 'the model endpoint answers again' });
  });

  it('looks on demand at most once per minRecheckMs, and joins a look under way', async () => {
    const { logger } = recordingLogger();
    const { probe } = probeAnswering({ reachable: true, reason: null, window: null });
    let now = 0;
    const health = createModelHealth({
      status: CONFIGURED,
      probe,
      logger,
      clock: () => now,
      minRecheckMs: 5_000,
    });
    await Promise.all([health.check(), health.check(), health.check()]);
    expect(probe.looks).toBe(1);
    now += 4_999;
    await health.check();
    expect(probe.looks).toBe(1);
    now += 1;
    await health.check();
    expect(probe.looks).toBe(2);
  });

  it('looks again by itself while started, and stops looking when stopped', async () => {
    const { logger } = recordingLogger();
    const { probe } = probeAnswering({ reachable: false, reason: 'down', window: null });
    const health = createModelHealth({
      status: CONFIGURED,
      probe,
      logger,
      unreachableIntervalMs: 1,
      minRecheckMs: 0,
    });
    health.start();
    while (probe.looks < 3) await new Promise((resolve) => setTimeout(resolve, 5));
    await health.stop();
    const looks = probe.looks;
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(probe.looks).toBe(looks);
  });

  it("reports each agent's model and window, and is reachable only when every endpoint is", async () => {
    const { logger, lines } = recordingLogger();
    const ollamaWindow = {
      tokens: 8192,
      from: 'Ollama num_ctx',
      truncatesAt: 8192,
      note: 'Ollama runs qwen with num_ctx 8192 though the model takes 32768',
    };
    const local = probeAnswering({ reachable: true, reason: null, window: ollamaWindow });
    const hosted = probeAnswering({ reachable: false, reason: 'refused the key', window: null });
    const health = createModelHealth({
      models: [
        {
          agents: ['criativo', 'po'],
          variable: 'FORJA_MODEL',
          status: CONFIGURED,
          probe: local.probe,
        },
        {
          agents: ['dev'],
          variable: 'FORJA_MODEL_DEV',
          status: { configured: true, provider: 'anthropic', model: 'claude-sonnet-4-5' },
          probe: hosted.probe,
        },
      ],
      windowOf: (agent) => ({
        tokens: agent === 'dev' ? 200_000 : 8192,
        source: agent === 'dev' ? 'model_family' : 'server',
        from: agent === 'dev' ? 'claude' : 'Ollama num_ctx',
        truncates_at: agent === 'dev' ? null : 8192,
        warning: null,
      }),
      logger,
      minRecheckMs: 0,
    });
    expect(health.serverWindow('criativo')).toBeNull();
    const report = await health.check();
    expect(report).toMatchObject({
      model: 'llama3.1',
      reachable: false,
      reason: 'refused the key',
    });
    expect(
      report.agents.map((agent) => [
        agent.agent,
        agent.variable,
        agent.model,
        agent.reachable,
        agent.window?.tokens,
      ]),
    ).toEqual([
      ['criativo', 'FORJA_MODEL', 'llama3.1', true, 8192],
      ['po', 'FORJA_MODEL', 'llama3.1', true, 8192],
      ['dev', 'FORJA_MODEL_DEV', 'claude-sonnet-4-5', false, 200_000],
    ]);
    expect(health.serverWindow('po')).toEqual(ollamaWindow);
    expect(health.serverWindow('dev:billing')).toBeNull();
    expect(health.serverWindow('revisor')).toEqual(ollamaWindow);
    await health.check();
    expect(lines.filter((line) => line.msg === ollamaWindow.note)).toHaveLength(1);
  });
});
