import { describe, expect, it } from 'vitest';
import type { StoredEvent } from '../../web/src/api/types.ts';
import { currentDeclaration } from '../../web/src/session/fold/current-declaration.ts';
import { foldSession } from '../../web/src/session/fold/fold-session.ts';

/** Events with seqs 1, 2, 3 … in the order given. */
function log(...events: Array<[type: string, payload: unknown, actor?: string]>): StoredEvent[] {
  return events.map(([type, payload, actor = 'system'], index) => ({
    id: `event-${index + 1}`,
    session_id: 'session',
    seq: index + 1,
    type,
    actor,
    payload,
    created_at: '2026-01-01T00:00:00Z',
  }));
}

const HANDOFF = {
  v: 1,
  handoff_id: 'h1',
  from_agent: 'criativo',
  to_agent: 'po',
  artifact_id: 'event-9',
};

describe('foldSession', () => {
  it('folds a Criativo conversation into chat, rules, brief and a handoff whose status follows the log', () => {
    const view = foldSession(
      log(
        ['session.created', { v: 1 }],
        ['agent.activated', { v: 1, agent: 'criativo', handoff_id: null }],
        ['chat.message', { v: 1, text: 'Bread at dawn' }, 'user'],
        ['turn.started', { v: 1, agent: 'criativo', turn_id: 't1', kind: 'message' }],
        [
          'agent.response',
          {
            v: 1,
            agent: 'criativo',
            text: 'Recording.',
            turn_id: 't1',
            tool_calls: [{ id: 'c1', name: 'emit_artifact', arguments: {} }],
          },
          'criativo',
        ],
        [
          'artifact.business_rule',
          { v: 1, data: { title: 'Early', statement: 'Before 6 a.m.' }, origin: [3] },
          'criativo',
        ],
        [
          'tool.completed',
          {
            v: 1,
            agent: 'criativo',
            tool_call_id: 'c1',
            tool: 'emit_artifact',
            args: {},
            ok: true,
            result: 'Recorded business_rule.',
          },
          'criativo',
        ],
        ['readiness.confirmed', { v: 1 }, 'user'],
        [
          'artifact.product_brief',
          {
            v: 1,
            data: { title: 'Bakery', summary: 's', problem: 'p', audience: 'a', goals: ['g'] },
          },
          'criativo',
        ],
        ['handoff.offered', { ...HANDOFF, status: 'offered' }],
        ['handoff.accepted', { ...HANDOFF, status: 'accepted' }],
        ['agent.activated', { v: 1, agent: 'po', handoff_id: 'h1' }],
      ),
    );
    expect(view.chat.map((item) => item.kind)).toEqual([
      'activated',
      'user',
      'agent',
      'steps',
      'readiness',
      'brief',
      'handoff',
      'activated',
    ]);
    expect(view.rules).toEqual([
      {
        eventId: 'event-6',
        seq: 6,
        title: 'Early',
        statement: 'Before 6 a.m.',
        origin: [3],
        recordedBy: 'criativo',
        revises: null,
        supersededBy: null,
      },
    ]);
    expect(view.brief).toMatchObject({
      title: 'Bakery',
      goals: ['g'],
      outOfScope: [],
      openQuestions: [],
    });
    expect(view.handoffs['h1']).toMatchObject({
      from: 'criativo',
      to: 'po',
      status: 'accepted',
      offeredSeq: 10,
    });
    expect(view.activeAgents).toEqual(['criativo', 'po']);
    expect(view.openTurns).toEqual([
      { turnId: 't1', agent: 'criativo', kind: 'message', paused: false },
    ]);
    expect(view.lastSeq).toBe(12);
  });

  it('folds the tools of one turn into one steps row, even when the agent spoke between them; a result stays inside its step', () => {
    const response = (turn: string, text: string, calls: string[]) =>
      [
        'agent.response',
        {
          v: 1,
          agent: 'po',
          text,
          turn_id: turn,
          tool_calls: calls.map((id) => ({ id, name: 'declare_backlog', arguments: {} })),
        },
        'po',
      ] as [string, unknown, string];
    const done = (id: string, tool: string, ok = true) =>
      [
        'tool.completed',
        {
          v: 1,
          agent: 'po',
          tool_call_id: id,
          tool,
          args: {},
          ok,
          result: 'Recorded. Tell them in one short sentence.',
        },
        'po',
      ] as [string, unknown, string];
    const view = foldSession(
      log(
        ['turn.started', { v: 1, agent: 'po', turn_id: 't1', kind: 'message' }],
        response('t1', '', ['c1', 'c2']),
        done('c1', 'declare_backlog'),
        done('c2', 'assign_tasks_to_modules', false),
        response('t1', 'Half way.', ['c3']),
        done('c3', 'hand_off_to_arquiteto'),
        response('t1', 'Done: the backlog is with the Arquiteto.', []),
        ['turn.started', { v: 1, agent: 'po', turn_id: 't2', kind: 'message' }],
        response('t2', '', ['c4']),
        done('c4', 'declare_backlog'),
      ),
    );
    expect(view.chat.map((item) => [item.kind, item.seq])).toEqual([
      ['agent', 2],
      ['steps', 3],
      ['agent', 5],
      ['agent', 7],
      ['agent', 9],
      ['steps', 10],
    ]);
    expect(view.chat[1]).toMatchObject({
      kind: 'steps',
      seq: 3,
      agent: 'po',
      turnId: 't1',
      steps: [
        { seq: 3, tool: 'declare_backlog', ok: true },
        { seq: 4, tool: 'assign_tasks_to_modules', ok: false },
        { seq: 6, tool: 'hand_off_to_arquiteto', ok: true },
      ],
    });
    // The result is the step's, shown when it opens, never a message of the chat.
    const result = 'Recorded. Tell them in one short sentence.';
    expect(
      view.chat.filter((item) => item.kind === 'steps').flatMap((item) => item.steps),
    ).toSatisfy((steps: Array<{ result: string }>) =>
      steps.every((step) => step.result === result),
    );
    expect(JSON.stringify(view.chat.filter((item) => item.kind !== 'steps'))).not.toContain(
      'short sentence',
    );
  });

  it('puts a compaction divider after the last message its summary covers, with the summary, and notes a cut window', () => {
    const view = foldSession(
      log(
        ['session.created', { v: 1 }],
        ['agent.activated', { v: 1, agent: 'criativo', handoff_id: null }],
        ['chat.message', { v: 1, text: 'one' }, 'user'],
        ['agent.response', { v: 1, agent: 'criativo', text: 'first' }, 'criativo'],
        ['chat.message', { v: 1, text: 'two' }, 'user'],
        ['agent.response', { v: 1, agent: 'criativo', text: 'second' }, 'criativo'],
        [
          'context.compacted',
          {
            v: 1,
            agent: 'criativo',
            through_seq: 4,
            summary: 'They said one.',
            tokens_before: 900,
            tokens_after: 300,
          },
          'context-manager',
        ],
        [
          'context.compaction_failed',
          {
            v: 1,
            agent: 'criativo',
            reason: 'failed',
            message: 'boom',
            left_out: 0,
            window_from_seq: 5,
          },
          'context-manager',
        ],
        [
          'context.compaction_failed',
          {
            v: 1,
            agent: 'criativo',
            reason: 'failed',
            message: 'boom',
            left_out: 3,
            window_from_seq: 6,
          },
          'context-manager',
        ],
      ),
    );
    expect(view.chat.map((item) => [item.kind, item.seq])).toEqual([
      ['activated', 2],
      ['user', 3],
      ['agent', 4],
      ['compaction', 7],
      ['user', 5],
      ['agent', 6],
      ['window', 9],
    ]);
    expect(view.chat[3]).toEqual({
      kind: 'compaction',
      seq: 7,
      agent: 'criativo',
      throughSeq: 4,
      summary: 'They said one.',
      tokensBefore: 900,
      tokensAfter: 300,
    });
    expect(view.chat[6]).toEqual({
      kind: 'window',
      seq: 9,
      agent: 'criativo',
      reason: 'failed',
      leftOut: 3,
    });
  });

  it('closes a turn on its final response, a failure or the loop limit, and pauses it on a proposed action', () => {
    const turn = (id: string) =>
      ['turn.started', { v: 1, agent: 'dev:api', turn_id: id, kind: 'message' }] as [
        string,
        unknown,
      ];
    const view = foldSession(
      log(
        turn('a'),
        ['agent.response', { v: 1, agent: 'dev:api', text: 'done', turn_id: 'a' }],
        turn('b'),
        [
          'turn.failed',
          { v: 1, agent: 'dev:api', turn_id: 'b', reason: 'budget_exceeded', message: 'no budget' },
        ],
        turn('c'),
        [
          'toolloop.limit_reached',
          { v: 1, agent: 'dev:api', turn_id: 'c', iterations: 14, ceiling: 14 },
        ],
        turn('d'),
        [
          'action.proposed',
          {
            v: 1,
            action_id: 'x1',
            tool_call_id: 'call-1',
            agent: 'dev:api',
            tool: 'terminal',
            args: { command: 'npm test' },
          },
        ],
      ),
    );
    expect(view.openTurns).toEqual([
      { turnId: 'd', agent: 'dev:api', kind: 'message', paused: true },
    ]);
    expect(view.actions).toEqual([
      expect.objectContaining({ id: 'x1', status: 'proposed', tool: 'terminal' }),
    ]);
    expect(view.chat.find((item) => item.kind === 'failed')).toMatchObject({
      reason: 'budget_exceeded',
      message: 'no budget',
    });
  });

  it('closes a turn on turn.completed: the answer that spoke and recorded is shown once, and not regenerated', () => {
    const view = foldSession(
      log(
        ['agent.activated', { v: 1, agent: 'criativo', handoff_id: null }],
        ['turn.started', { v: 1, agent: 'criativo', turn_id: 't', kind: 'message' }],
        [
          'agent.response',
          {
            v: 1,
            agent: 'criativo',
            turn_id: 't',
            text: 'Anotei a regra.',
            tool_calls: [{ id: 'c1', name: 'emit_artifact', arguments: {} }],
          },
          'criativo',
        ],
        [
          'tool.completed',
          {
            v: 1,
            agent: 'criativo',
            turn_id: 't',
            tool_call_id: 'c1',
            tool: 'emit_artifact',
            args: {},
            ok: true,
            result: 'Recorded business_rule.',
          },
          'criativo',
        ],
        ['turn.completed', { v: 1, agent: 'criativo', turn_id: 't', answer_event_id: 'event-3' }],
      ),
    );
    expect(view.openTurns).toEqual([]);
    expect(view.chat.filter((item) => item.kind === 'agent')).toEqual([
      expect.objectContaining({ text: 'Anotei a regra.', seq: 3 }),
    ]);
    expect(view.controls).toEqual({ retry: [], regenerate: [] });
  });

  it('settles a proposed action when it is approved and its tool completes, or when it is denied', () => {
    const propose = (id: string) =>
      [
        'action.proposed',
        {
          v: 1,
          action_id: id,
          tool_call_id: `call-${id}`,
          agent: 'dev:api',
          tool: 'terminal',
          args: {},
        },
      ] as [string, unknown];
    const view = foldSession(
      log(
        propose('x1'),
        propose('x2'),
        propose('x3'),
        ['action.approved', { v: 1, action_id: 'x1' }],
        [
          'tool.completed',
          {
            v: 1,
            agent: 'dev:api',
            tool_call_id: 'call-x1',
            tool: 'terminal',
            args: {},
            ok: true,
            result: 'ok',
          },
        ],
        ['action.denied', { v: 1, action_id: 'x2', reason: 'no' }],
        ['action.approved', { v: 1, action_id: 'x3' }],
      ),
    );
    expect(view.actions.map((action) => [action.id, action.status])).toEqual([
      ['x1', 'completed'],
      ['x2', 'denied'],
      ['x3', 'approved'],
    ]);
  });

  it('drops a task the Arquiteto split and keeps its parts', () => {
    const task = (id: string, extra: Record<string, unknown>) =>
      [
        'artifact.task',
        {
          v: 1,
          data: {
            id,
            story_id: 'HS-001',
            title: id,
            description: 'd',
            acceptance_criteria: ['c'],
            ...extra,
          },
        },
      ] as [string, unknown];
    const view = foldSession(
      log(
        task('AT-001', { module: 'api' }),
        task('AT-002', {}),
        task('AT-001', { module: 'api', split_into: ['AT-003', 'AT-004'] }),
        task('AT-003', { module: 'api', split_from: 'AT-001' }),
        task('AT-004', { module: 'web', split_from: 'AT-001' }),
      ),
    );
    expect(view.backlog.tasks.map((item) => [item.id, item.module])).toEqual([
      ['AT-002', null],
      ['AT-003', 'api'],
      ['AT-004', 'web'],
    ]);
  });

  it('keeps backlog items by id (a re-declaration replaces), versioned artifacts by declaration, and dev progress', () => {
    const view = foldSession(
      log(
        ['artifact.epic', { v: 1, data: { id: 'EP-030', title: 'Old title', description: 'd' } }],
        ['artifact.epic', { v: 1, data: { id: 'EP-030', title: 'New title', description: 'd' } }],
        [
          'artifact.task',
          {
            v: 1,
            data: {
              id: 'AT-276',
              story_id: 'HS-071',
              title: 't',
              description: 'd',
              acceptance_criteria: ['c'],
              module: 'api',
            },
          },
        ],
        [
          'artifact.module_map',
          {
            v: 1,
            data: {
              version: 2,
              modules: [{ name: 'api', stack: 'Node', responsibility: 'r', dependsOn: [] }],
            },
          },
        ],
        ['artifact.module_map', { v: 1, data: { version: 1, modules: [] } }],
        [
          'artifact.module_contracts',
          {
            v: 1,
            data: {
              version: 1,
              contratos: [{ modulo: 'api', expoe: [{ tipo: 'rota', assinatura: 'GET /' }] }],
            },
          },
        ],
        [
          'artifact.c4_diagram',
          { v: 1, data: { version: 1, system: { name: 'Bakery', description: 'd' } } },
        ],
        ['agent.activated', { v: 1, agent: 'dev:api', handoff_id: 'h2' }],
        [
          'tool.completed',
          {
            v: 1,
            agent: 'dev:api',
            tool_call_id: 'c1',
            tool: 'finish_task',
            args: { task_id: 'AT-276' },
            ok: true,
            result: 'ok',
          },
        ],
        [
          'tool.completed',
          {
            v: 1,
            agent: 'dev:api',
            tool_call_id: 'c2',
            tool: 'report_blocked',
            args: { modulo: 'auth', falta: 'checkSession' },
            ok: true,
            result: 'ok',
          },
        ],
        [
          'tool.completed',
          {
            v: 1,
            agent: 'dev:api',
            tool_call_id: 'c3',
            tool: 'report_blocked',
            args: { modulo: '' },
            ok: false,
            result: 'refused',
          },
        ],
      ),
    );
    expect(view.backlog.epics).toEqual([
      expect.objectContaining({ id: 'EP-030', title: 'New title', seq: 2 }),
    ]);
    expect(view.backlog.tasks).toEqual([
      expect.objectContaining({ id: 'AT-276', storyId: 'HS-071', module: 'api' }),
    ]);
    expect(currentDeclaration(view.moduleMaps)).toMatchObject({ version: 2, seq: 4 });
    expect(view.contracts[0]!.data.contratos[0]!.expoe).toEqual([
      { tipo: 'rota', assinatura: 'GET /', descricao: null },
    ]);
    expect(Object.keys(view.otherArtifacts)).toEqual(['c4_diagram']);
    expect(view.devs).toEqual([
      {
        agent: 'dev:api',
        module: 'api',
        activeSince: 8,
        finished: [{ seq: 9, taskId: 'AT-276', summary: null, commit: null }],
        blocks: [{ seq: 10, modulo: 'auth', falta: 'checkSession' }],
        lastSaid: null,
        failures: 0,
      },
    ]);
  });

  it("gives a finished task the commit its dev.task_finished recorded just before the tool's result", () => {
    const finish = (id: string, task: string) =>
      [
        'tool.completed',
        {
          v: 1,
          agent: 'dev:api',
          tool_call_id: id,
          tool: 'finish_task',
          args: { task_id: task, resumo: 'feito' },
          ok: true,
          result: 'ok',
        },
      ] as [string, unknown];
    const commit = 'a'.repeat(40);
    const view = foldSession(
      log(
        ['agent.activated', { v: 1, agent: 'dev:api', handoff_id: 'h2' }],
        [
          'dev.task_finished',
          {
            v: 1,
            agent: 'dev:api',
            module: 'api',
            task_id: 'AT-1',
            summary: 'feito',
            commit,
            branch: 'dev-api',
            files: ['src/api.ts'],
          },
          'dev:api',
        ],
        finish('c1', 'AT-1'),
        finish('c2', 'AT-2'),
      ),
    );
    expect(view.devs[0]!.finished).toEqual([
      { seq: 3, taskId: 'AT-1', summary: 'feito', commit },
      { seq: 4, taskId: 'AT-2', summary: 'feito', commit: null },
    ]);
    // The turn's steps row links the commit too.
    const steps = view.chat.flatMap((item) => (item.kind === 'steps' ? item.steps : []));
    expect(steps).toMatchObject([
      { seq: 3, tool: 'finish_task', ok: true, commit },
      { seq: 4, tool: 'finish_task', ok: true },
    ]);
    expect(steps[1]).not.toHaveProperty('commit');
  });

  it("opens a step to what it did: a write compared with the file's last content, an answered action's decision", () => {
    const done = (id: string, tool: string, args: unknown, ok: boolean, result: string) =>
      [
        'tool.completed',
        { v: 1, agent: 'dev:api', tool_call_id: id, tool, args, ok, result },
        'dev:api',
      ] as [string, unknown, string];
    const view = foldSession(
      log(
        done('c1', 'write_file', { path: 'a.ts', content: 'one\n' }, true, 'Wrote 4 bytes'),
        done('c2', 'write_file', { path: 'a.ts', content: 'two\n' }, true, 'Wrote 4 bytes'),
        done('c3', 'read_file', { path: 'b.ts' }, true, 'read\n'),
        done('c4', 'write_file', { path: 'b.ts', content: 'bee\n' }, true, 'Wrote 4 bytes'),
        [
          'action.proposed',
          {
            v: 1,
            action_id: 'a1',
            tool_call_id: 'c5',
            agent: 'dev:api',
            tool: 'terminal',
            args: { command: 'rm -rf build' },
          },
          'dev:api',
        ],
        ['action.denied', { v: 1, action_id: 'a1', reason: 'not now' }, 'ana'],
        done(
          'c5',
          'terminal',
          { command: 'rm -rf build' },
          false,
          'The person denied this action.',
        ),
      ),
    );
    const steps = view.chat.flatMap((item) => (item.kind === 'steps' ? item.steps : []));
    expect(steps.map((step) => step.detail)).toEqual([
      { kind: 'write', path: 'a.ts', content: 'one\n', before: null },
      { kind: 'write', path: 'a.ts', content: 'two\n', before: 'one\n' },
      { kind: 'text', args: '{\n  "path": "b.ts"\n}', result: 'read\n' },
      { kind: 'write', path: 'b.ts', content: 'bee\n', before: 'read\n' },
      {
        kind: 'terminal',
        command: 'rm -rf build',
        output: 'The person denied this action.',
        exit: null,
        notes: [],
      },
    ]);
    const denied = { verdict: 'denied', by: 'ana', reason: 'not now' };
    expect(steps[4]!.decision).toEqual(denied);
    expect(view.actions[0]!.decision).toEqual(denied);
    expect(view.chat.find((item) => item.kind === 'action')).toMatchObject({
      action: { decision: denied },
    });
  });

  it('ignores unknown events, counts payloads their kind refuses and reads artifact data defensively', () => {
    const view = foldSession(
      log(
        ['something.from.the.future', { v: 7, whatever: [1, 2] }],
        ['chat.message', null],
        ['agent.response', 'not an object'],
        ['artifact.product_brief', { v: 1, data: 42 }],
        ['artifact.module_map', { v: 1, data: { version: 'one', modules: 'none' } }],
        ['handoff.offered', { v: 1 }],
        ['artifact.epic', { v: 1, data: { title: 'no id' } }],
      ),
    );
    // The server's schemas refuse the chat message, the response and the handoff: counted, never guessed at.
    expect(view.unreadable).toBe(3);
    expect(view.chat.map((item) => item.kind)).toEqual(['brief']);
    expect(view.handoffs).toEqual({});
    expect(view.brief).toMatchObject({ title: '', goals: [] });
    expect(view.moduleMaps).toEqual([{ seq: 5, version: 0, data: { modules: [] } }]);
    expect(view.backlog.epics).toEqual([]);
    expect(view.lastSeq).toBe(7);
  });
});

describe('currentDeclaration', () => {
  it('takes the highest version, ties broken by the later seq', () => {
    const declarations = [
      { seq: 3, version: 2, data: 'a' },
      { seq: 9, version: 1, data: 'b' },
      { seq: 7, version: 2, data: 'c' },
    ];
    expect(currentDeclaration(declarations)?.data).toBe('c');
    expect(currentDeclaration([])).toBeNull();
  });
});

describe('a revised business rule (ADR 0421)', () => {
  it('marks the version it replaces, which stays listed, and names the one it revises and who recorded it', () => {
    const rule = (statement: string, extra: Record<string, unknown> = {}) => ({
      v: 1,
      data: { title: 'Prazo', statement },
      origin: [1],
      ...extra,
    });
    const view = foldSession(
      log(
        ['chat.message', { v: 1, text: 'Trocas até as 18h' }, 'user'],
        ['artifact.business_rule', rule('Até as 18h'), 'criativo'],
        ['chat.message', { v: 1, text: 'Agora até as 20h', to: 'dev:trocas' }, 'user'],
        ['artifact.business_rule', rule('Até as 20h', { supersedes: 'event-2' }), 'dev:trocas'],
      ),
    );
    expect(view.rules).toEqual([
      expect.objectContaining({ seq: 2, supersededBy: 4, revises: null, recordedBy: 'criativo' }),
      expect.objectContaining({
        seq: 4,
        statement: 'Até as 20h',
        supersededBy: null,
        revises: 2,
        recordedBy: 'dev:trocas',
      }),
    ]);
  });
});
