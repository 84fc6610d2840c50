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

    set({ reachable: true, reason: null });
    now += 10_000;
    expect(await health.check()).toMatchObject({ reachable: true, reason: null });
    expect(lines.at(-1)).toMatchObject({ level: 30, msg: 'the model endpoint answers again' });
  });

  it('looks on demand at most once per minRecheckMs, and joins a look under way', async () => {
    const { logger } = recordingLogger();
    const { probe } = probeAnswering({ reachable: true, reason: null });
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
    const { probe } = probeAnswering({ reachable: false, reason: 'down' });
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
});
