import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Forja } from '../../composition.ts';
import { startMemoryForja } from '../../memory/testing/start-memory-forja.ts';
import { testDatabaseEngines } from '../../store/testing/test-databases.ts';
import { requestJson } from '../../testing/forja-harness.ts';

describe.each(testDatabaseEngines())(
  'instruction files under a running server on $name',
  (engine) => {
    let forja: Forja;
    afterEach(() => forja?.close());

    it('sees an edited AGENTS.md on the next turn (the scripted model expects each version in the system prompt)', async () => {
      const started = await startMemoryForja(engine, {
        script: {
          turns: [
            {
              agent: 'criativo',
              text: 'Primeira resposta.',
              expect: { system: ['REGRA v1: frases curtas.'] },
            },
            {
              agent: 'criativo',
              text: 'Segunda resposta.',
              expect: { system: ['REGRA v2: frases longas.', 'NOVA: um arquivo global.'] },
            },
          ],
        },
      });
      forja = started.forja;
      const project = await requestJson(forja, 'POST', '/api/projects', { name: 'Padaria' });
      const session = await requestJson(
        forja,
        'POST',
        `/api/projects/${project.body.id}/sessions`,
        {},
      );
      const workspace = path.join(started.dataDirectory, 'projects', project.body.id, 'workspace');
      await mkdir(path.join(workspace, 'docs'), { recursive: true });
      await writeFile(path.join(workspace, 'AGENTS.md'), 'REGRA v1: frases curtas.\n');

      await requestJson(forja, 'POST', `/api/sessions/${session.body.id}/agents/criativo/start`);
      await requestJson(forja, 'POST', `/api/sessions/${session.body.id}/messages`, {
        text: 'Quero vender pão.',
      });
      await forja.conversation.idle(session.body.id);
      // Edited in place and a file added elsewhere, with no invalidate and no restart.
      await writeFile(path.join(workspace, 'AGENTS.md'), 'REGRA v2: frases longas.\n');
      await writeFile(
        path.join(workspace, 'docs', 'AGENTS.md'),
        '<!-- forja:global -->\nNOVA: um arquivo global.\n',
      );
      await requestJson(forja, 'POST', `/api/sessions/${session.body.id}/messages`, {
        text: 'E de madrugada?',
      });
      await forja.conversation.idle(session.body.id);

      const events = await forja.eventLog.read(session.body.id);
      expect(events.filter((event) => event.type === 'turn.failed')).toEqual([]);
      expect(
        events
          .filter((event) => event.type === 'agent.response')
          .map((event) => (event.payload as { text?: string }).text),
      ).toEqual(['Primeira resposta.', 'Segunda resposta.']);
      const systems = started.requests
        .filter((request) => request.agent === 'criativo')
        .map((request) => request.system);
      expect(systems[1]).not.toContain('REGRA v1');
    });
  },
);
