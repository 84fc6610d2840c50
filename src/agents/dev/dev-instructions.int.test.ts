import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createInstructionFiles } from '../../harness/index.ts';
import { readAgentInstructions, writeAgentInstructions } from '../../store/index.ts';
import { testDatabaseEngines } from '../../store/testing/test-databases.ts';
import { refreshSessionView } from '../runtime/session-view.ts';
import { devAgent } from './dev-agent.ts';
import { openLineFixture } from './test-support/line-fixture.ts';

const MAP = {
  version: 1,
  modules: [
    {
      name: 'pedidos',
      stack: 'TypeScript',
      responsibility: 'Pedidos da padaria.',
      directory: 'packages/pedidos',
    },
    { name: 'catalogo', stack: 'TypeScript', responsibility: 'Catálogo de pães.' },
  ],
};

describe.each(testDatabaseEngines())('a dev agent’s instruction files on $name', (engine) => {
  let close: () => Promise<void> = async () => undefined;
  afterEach(() => close());

  it("reads the files on the path to its module's directory and the patch stored for dev:<module>", async () => {
    const fixture = await openLineFixture(engine);
    close = () => fixture.database.close();
    await fixture.recordArtifact('module_map', MAP);
    const workspace = await fixture.workspaces.ensureWorkspace(fixture.projectId);
    await mkdir(path.join(workspace, 'packages', 'pedidos'), { recursive: true });
    await mkdir(path.join(workspace, 'packages', 'catalogo'), { recursive: true });
    await writeFile(path.join(workspace, 'AGENTS.md'), 'RAIZ: testes primeiro.\n');
    await writeFile(
      path.join(workspace, 'packages', 'AGENTS.md'),
      'PACOTES: exporte de src/index.ts.\n',
    );
    await writeFile(
      path.join(workspace, 'packages', 'pedidos', 'AGENTS.md'),
      'PEDIDOS: valores em centavos.\n',
    );
    await writeFile(
      path.join(workspace, 'packages', 'catalogo', 'AGENTS.md'),
      'CATALOGO: não leia.\n',
    );
    await writeAgentInstructions(
      fixture.database,
      fixture.projectId,
      'dev',
      'PATCH-DEV: para todos os devs.',
    );
    await writeAgentInstructions(
      fixture.database,
      fixture.projectId,
      'dev:pedidos',
      'PATCH-PEDIDOS: só o dev de pedidos.',
    );
    const instructionFiles = createInstructionFiles({
      patchSource: {
        readPatch: async (projectId, agent) =>
          (await readAgentInstructions(fixture.database, projectId, agent))?.content ?? null,
      },
      flags: { graph_instruction_templates_enabled: false },
      clock: Date.now,
    });
    const line = { ...fixture.line, prompts: { ...fixture.line.prompts, instructionFiles } };
    const view = await refreshSessionView(fixture.eventLog, fixture.sessionId);
    const scope = { projectId: fixture.projectId, sessionId: fixture.sessionId, module: 'pedidos' };
    const system = await devAgent(line, 'pedidos').buildSystemPrompt(view, scope);
    const markers = ['RAIZ:', 'PACOTES:', 'PEDIDOS:', 'PATCH-DEV:', 'PATCH-PEDIDOS:'].map(
      (marker) => system.indexOf(marker),
    );
    expect(markers.every((at) => at >= 0)).toBe(true);
    expect([...markers].sort((left, right) => left - right)).toEqual(markers);
    expect(system).not.toContain('CATALOGO:');

    // A module the map gives no directory: its dev reads the root's files alone.
    const catalogo = await devAgent(line, 'catalogo').buildSystemPrompt(view, {
      ...scope,
      module: 'catalogo',
    });
    expect(catalogo).toContain('RAIZ:');
    expect(catalogo).not.toContain('PACOTES:');
    expect(catalogo).not.toContain('PATCH-PEDIDOS:');
    expect(catalogo).toContain('PATCH-DEV:');
  });
});
