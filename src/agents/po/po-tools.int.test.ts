import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../../store/index.ts';
import { listHandoffs } from '../../store/index.ts';
import { testDatabaseEngines } from '../../store/testing/test-databases.ts';
import { openLineFixture, type LineFixture } from '../dev/test-support/line-fixture.ts';
import type { AgentTool } from '../runtime/agent-tool.ts';
import { declareBacklogTool } from './declare-backlog-tool.ts';
import { handOffToArquitetoTool } from './hand-off-to-arquiteto-tool.ts';

const BACKLOG = {
  epics: [{ id: 'EP-001', title: 'Assinatura', description: 'Pão por assinatura' }],
  stories: [
    {
      id: 'HS-001',
      epic_id: 'EP-001',
      title: 'Assinar',
      description: 'A pessoa assina',
      acceptance_criteria: ['assina em 3 passos'],
    },
  ],
  tasks: [
    {
      id: 'AT-001',
      story_id: 'HS-001',
      title: 'Tela',
      description: 'Formulário',
      acceptance_criteria: ['valida o CEP'],
    },
  ],
};

describe.each(testDatabaseEngines())('the PO tools on $name', (engine) => {
  let database: Database;
  let fixture: LineFixture;
  let tools: AgentTool[];
  beforeAll(async () => (database = await engine.open()));
  afterAll(() => database.close());
  beforeEach(async () => {
    fixture = await openLineFixture(engine, { database });
    tools = [declareBacklogTool(fixture.line), handOffToArquitetoTool(fixture.line)];
  });
  afterEach(() => fixture.close());
  const po = { agent: 'po' };

  it('records each backlog item as its artifact, and refuses a broken declaration whole', async () => {
    const broken = await fixture.call(
      tools,
      'declare_backlog',
      { ...BACKLOG, tasks: [{ ...BACKLOG.tasks[0], story_id: 'HS-404' }] },
      po,
    );
    expect(broken).toMatchObject({
      ok: false,
      result: expect.stringContaining('tasks[0].story_id: story HS-404 does not exist'),
    });
    expect(await fixture.artifactTypes()).toEqual([]);
    const recorded = await fixture.call(tools, 'declare_backlog', BACKLOG, po);
    expect(recorded).toMatchObject({
      ok: true,
      result: expect.stringContaining('EP-001, HS-001, AT-001'),
    });
    expect(await fixture.artifactTypes()).toEqual([
      'artifact.epic',
      'artifact.story',
      'artifact.task',
    ]);
  });

  it('hands off only with an accepted handoff and a task, once, completing its own handoff', async () => {
    expect((await fixture.call(tools, 'hand_off_to_arquiteto', {}, po)).result).toContain(
      'the backlog has no task yet',
    );
    await fixture.call(tools, 'declare_backlog', BACKLOG, po);
    expect((await fixture.call(tools, 'hand_off_to_arquiteto', {}, po)).result).toContain(
      'po has no accepted handoff in this session',
    );
    const own = await fixture.acceptHandoff('criativo', 'po');

    const first = await fixture.call(tools, 'hand_off_to_arquiteto', {}, po);
    expect(first).toMatchObject({
      ok: true,
      result: expect.stringContaining('Handed off to the Arquiteto'),
    });
    const handoffs = await listHandoffs(database, fixture.sessionId);
    expect(
      handoffs.map((handoff) => [handoff.from_agent, handoff.to_agent, handoff.status]),
    ).toEqual([
      ['criativo', 'po', 'completed'],
      ['po', 'arquiteto', 'offered'],
    ]);
    expect(handoffs[0]!.id).toBe(own);
    const types = (await fixture.eventLog.read(fixture.sessionId)).map((event) => event.type);
    expect(types.slice(-2)).toEqual(['handoff.completed', 'handoff.offered']);
    const lastTask = (await fixture.eventLog.read(fixture.sessionId)).find(
      (event) => event.type === 'artifact.task',
    )!;
    expect(handoffs[1]!.artifact_id).toBe(lastTask.id);

    // Run again (as after a stop between its commit and its record): nothing new.
    expect(await fixture.call(tools, 'hand_off_to_arquiteto', {}, po)).toEqual({
      ok: true,
      result: 'The work was already handed to the Arquiteto; nothing more to do.',
    });
    expect(await listHandoffs(database, fixture.sessionId)).toHaveLength(2);
  });
});
