import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createForja } from '../composition.ts';
import { loadConfig } from '../config/config.ts';
import { createScriptedProvider, type ScriptInput } from '../gateway/providers/index.ts';
import { requestJson } from '../testing/forja-harness.ts';
import { newSessionThroughApi } from '../testing/scripted-forja.ts';
import { runCli } from './main.ts';

const TURNS = 45;

describe('forja context --session on the embedded database', () => {
  let dataDirectory: string;
  beforeAll(async () => {
    dataDirectory = await mkdtemp(path.join(tmpdir(), 'forja-cli-session-context-'));
  });
  afterAll(() => rm(dataDirectory, { recursive: true, force: true }));
  const env = () => ({
    FORJA_DATA_DIR: dataDirectory,
    LOG_LEVEL: 'silent',
    FORJA_MODEL_CONTEXT_TOKENS: '4000',
  });

  async function run(...argv: string[]) {
    const stdout: string[] = [];
    const stderr: string[] = [];
    const code = await runCli(argv, {
      env: env(),
      stdout: (text) => stdout.push(text),
      stderr: (text) => stderr.push(text),
    });
    return { code, stdout: stdout.join(''), stderr: stderr.join('') };
  }

  it('prints the compaction point and exactly the messages the next call sends, as the API shows them', async () => {
    const turns: ScriptInput['turns'] = Array.from({ length: TURNS }, (_, n) => ({
      agent: 'criativo',
      text: `Resposta ${n + 1}: anotado.`,
    }));
    for (let n = 0; n < 5; n += 1)
      turns.push({
        agent: 'context-manager',
        text: `Resumo ${n + 1}: entregas e horários do pão.`,
      });
    const loaded = loadConfig(env());
    if (!loaded.ok) throw new Error(loaded.error.message);
    const forja = await createForja(loaded.config, pino({ level: 'silent' }), {
      env: env(),
      provider: createScriptedProvider({ script: { turns } }),
      memory: { workers: false },
    });
    let sessionId: string;
    let fromApi: { messages: unknown[]; compaction: { through_seq: number } | null };
    try {
      ({ sessionId } = await newSessionThroughApi(forja));
      await requestJson(forja, 'POST', `/api/sessions/${sessionId}/agents/criativo/start`);
      for (let n = 1; n <= TURNS; n += 1) {
        await requestJson(forja, 'POST', `/api/sessions/${sessionId}/messages`, {
          text: `Mensagem ${n}: detalhes sobre entregas, horários e sabores do pão da manhã.`,
        });
        await forja.conversation.idle(sessionId);
      }
      const shown = await requestJson(
        forja,
        'GET',
        `/api/sessions/${sessionId}/agents/criativo/context`,
      );
      expect(shown.status).toBe(200);
      fromApi = shown.body;
      expect(
        (await requestJson(forja, 'GET', `/api/sessions/${sessionId}/agents/nobody/context`))
          .status,
      ).toBe(404);
    } finally {
      await forja.close();
    }

    const json = await run('context', '--session', sessionId, '--agent', 'criativo', '--json');
    expect(json).toMatchObject({ code: 0, stderr: '' });
    const report = JSON.parse(json.stdout);
    expect(report.messages).toEqual(fromApi.messages);
    expect(report.compaction.through_seq).toBe(fromApi.compaction!.through_seq);
    expect(report.window).toEqual({
      tokens: 4000,
      source: 'setting',
      from: 'FORJA_MODEL_CONTEXT_TOKENS',
      truncates_at: null,
      warning: null,
    });
    expect(
      report.request_tokens + report.max_output_tokens + report.margin_tokens,
    ).toBeLessThanOrEqual(4000);
    expect(report.messages[0].content).toMatch(
      /^\[Resumo da conversa até #\d+; .*\]\nResumo \d+: entregas/,
    );
    expect(report.messages.at(-1)).toEqual({
      role: 'assistant',
      content: `Resposta ${TURNS}: anotado.`,
    });

    const text = await run('context', '--session', sessionId, '--agent', 'criativo');
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(
      `compaction point: through #${report.compaction.through_seq} (context.compacted #${report.compaction.seq},`,
    );
    expect(text.stdout).toContain(
      'agent criativo: window 4000 tokens (setting: FORJA_MODEL_CONTEXT_TOKENS)',
    );
    // Where the layers travel (ADR 0430): said once, before the prompt itself.
    expect(text.stdout).toContain(
      'placement: the layers go in the system prompt; a running lane keeps',
    );
    expect(report.layers.map((layer: { name: string }) => layer.name)).toEqual([
      'identidade',
      'instruction_files',
      'contexto_projeto',
      'regras_negocio',
      'estado_tarefa',
    ]);
    expect(text.stdout).toMatch(/identidade +keep_or_drop +budget +\d+ +\d+ tokens +kept/);
    for (const message of report.messages) expect(text.stdout).toContain(message.content);
    expect(text.stdout).not.toContain('Mensagem 2:');

    expect((await run('context', '--session', 'nope', '--agent', 'criativo')).code).toBe(2);
    expect((await run('context', '--session', sessionId)).code).toBe(2);
  }, 120_000);
});
