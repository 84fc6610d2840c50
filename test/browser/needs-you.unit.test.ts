import { describe, expect, it } from 'vitest';
import type { StoredEvent } from '../../web/src/api/types.ts';
import { foldSession } from '../../web/src/session/fold/fold-session.ts';
import { needsYou, needsYouCount, pageTitle } from '../../web/src/session/fold/needs-you.ts';

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
  artifact_id: 'event-1',
};
const PROPOSED = {
  v: 1,
  action_id: 'a1',
  tool_call_id: 'c1',
  agent: 'dev:api',
  tool: 'terminal',
  args: { command: 'npm test' },
};

describe('what needs the person', () => {
  it('counts an action to approve, a handoff to accept and a failed turn not answered since; the tab title leads with it', () => {
    const events = log(
      ['handoff.offered', { ...HANDOFF, status: 'offered' }],
      ['action.proposed', PROPOSED, 'dev:api'],
      [
        'turn.failed',
        { v: 1, agent: 'po', turn_id: 't1', reason: 'provider_error', message: 'boom' },
        'po',
      ],
    );
    expect(needsYouCount(foldSession(events))).toBe(3);
    expect(pageTitle(3)).toBe('(3) Forja');
    expect(pageTitle(0)).toBe('Forja');

    const settled = [
      ...events,
      ...log(
        ['handoff.accepted', { ...HANDOFF, status: 'accepted' }],
        ['action.approved', { v: 1, action_id: 'a1' }, 'user'],
        ['agent.response', { v: 1, agent: 'po', text: 'Back on track.', turn_id: 't2' }, 'po'],
      ).map((event, index) => ({ ...event, seq: 4 + index, id: `event-${4 + index}` })),
    ];
    expect(needsYouCount(foldSession(settled))).toBe(0);
  });
});

describe('the needs-you list', () => {
  const blocked = (seq: number) => ({
    v: 1,
    agent: 'dev:web',
    module: 'web',
    modulo: 'auth',
    falta: 'checkSession(token)',
    seq,
  });
  const arquiteto = (type: string, payload: Record<string, unknown>) =>
    [type, { v: 1, agent: 'arquiteto', turn_id: 'ta', ...payload }, 'arquiteto'] as [
      string,
      unknown,
      string,
    ];

  it('resolves a block of kind check by a new module map, not by new contracts, as the server does', () => {
    const checkBlock = log(
      ['dev.blocked', { ...blocked(1), modulo: 'web', kind: 'check' }, 'dev:web'],
      arquiteto('turn.started', { kind: 'message' }),
      ['artifact.module_contracts', { v: 1, data: { version: 2, contratos: [] } }, 'arquiteto'],
      arquiteto('agent.response', { text: 'Contratos novos.' }),
    );
    expect(needsYou(foldSession(checkBlock))).toMatchObject([{ kind: 'block', modulo: 'web' }]);
    const fixed = log(
      ...checkBlock.map(
        (event) => [event.type, event.payload, event.actor] as [string, unknown, string],
      ),
      ['artifact.module_map', { v: 1, data: { version: 2, modules: [] } }, 'arquiteto'],
    );
    expect(needsYou(foldSession(fixed))).toEqual([]);
  });

  it("lists a block only once the Arquiteto's turn ended without resolving it, and drops it when resolved", () => {
    const open = log(
      ['dev.blocked', blocked(1), 'dev:web'],
      arquiteto('turn.started', { kind: 'message' }),
      arquiteto('agent.response', { text: 'Looking…', tool_calls: [{ id: 'c', name: 'x' }] }),
    );
    // The Arquiteto is still on it: nothing for the person yet.
    expect(needsYou(foldSession(open))).toEqual([]);
    const unresolved = log(
      ...open.map((event) => [event.type, event.payload, event.actor] as [string, unknown, string]),
      arquiteto('agent.response', { text: 'I cannot decide this.' }),
    );
    expect(needsYou(foldSession(unresolved))).toEqual([
      { kind: 'block', seq: 1, agent: 'dev:web', modulo: 'auth', falta: 'checkSession(token)' },
    ]);
    expect(needsYouCount(foldSession(unresolved))).toBe(1);
    const answered = log(
      ...unresolved.map(
        (event) => [event.type, event.payload, event.actor] as [string, unknown, string],
      ),
      [
        'arquiteto.block_answered',
        { v: 1, dev: 'dev:web', block_seq: 1, answer: 'Go without.' },
        'arquiteto',
      ],
    );
    expect(needsYou(foldSession(answered))).toEqual([]);
  });

  it('lists everything oldest first and marks a risky action from its recorded verdict', () => {
    const view = foldSession(
      log(
        [
          'action.proposed',
          {
            ...PROPOSED,
            risk: {
              risky: true,
              reasons: [{ rule: 'superuser', why: 'asks for superuser rights' }],
            },
          },
          'dev:api',
        ],
        ['handoff.offered', { ...HANDOFF, status: 'offered' }],
        ['action.proposed', { ...PROPOSED, action_id: 'a2', tool_call_id: 'c2' }, 'dev:api'],
      ),
    );
    expect(
      needsYou(view).map((item) => [item.kind, item.seq, item.kind === 'action' && item.risky]),
    ).toEqual([
      ['action', 1, true],
      ['handoff', 2, false],
      ['action', 3, false],
    ]);
    expect(view.actions[0]!.risk).toEqual({
      risky: true,
      reasons: [{ rule: 'superuser', why: 'asks for superuser rights' }],
    });
    expect(view.actions[1]!.risk).toBeNull();
  });

  it('lists a completed line until it is merged into main, the last line.completed counting', () => {
    const dev = (digit: string) => digit.repeat(40);
    const completed = log(
      ['line.completed', { v: 1, commit: dev('1'), modules: ['api'] }],
      ['line.completed', { v: 1, commit: dev('2'), modules: ['api'] }],
    );
    expect(needsYou(foldSession(completed))).toEqual([
      { kind: 'merge', seq: 2, devCommit: dev('2') },
    ]);
    const merged = log(
      ...completed.map((event) => [event.type, event.payload] as [string, unknown]),
      [
        'line.merged_into_main',
        { v: 1, commit: dev('a'), dev_commit: dev('2'), actor: 'user' },
        'user',
      ],
    );
    const view = foldSession(merged);
    expect(needsYou(view)).toEqual([]);
    expect(view.lineEnd).toEqual({
      seq: 2,
      devCommit: dev('2'),
      merged: { seq: 3, commit: dev('a') },
    });
  });

  it('lists the instruction files a merge into main brought until the person accepts them', () => {
    const digest = (path: string, sha: string) => ({ path, sha256: sha.repeat(64) });
    const merged = log([
      'line.merged_into_main',
      {
        v: 1,
        commit: 'a'.repeat(40),
        dev_commit: 'b'.repeat(40),
        actor: 'user',
        instruction_files: [digest('AGENTS.md', '1'), digest('src/CLAUDE.md', '2')],
      },
      'user',
    ]);
    expect(needsYou(foldSession(merged))).toEqual([
      { kind: 'instructions', seq: 1, paths: ['AGENTS.md', 'src/CLAUDE.md'] },
    ]);
    // Seq 2: after the merge.
    const [, accepted] = log(
      ['noop', {}],
      [
        'line.instructions_accepted',
        {
          v: 1,
          merge_commit: 'a'.repeat(40),
          instruction_files: [digest('AGENTS.md', '1'), digest('src/CLAUDE.md', '2')],
          actor: 'user',
        },
        'user',
      ],
    );
    expect(needsYou(foldSession([...merged, accepted!]))).toEqual([]);
    // A merge before instruction files were recorded waits for nothing.
    expect(
      needsYou(
        foldSession(
          log([
            'line.merged_into_main',
            { v: 1, commit: 'a'.repeat(40), dev_commit: 'b'.repeat(40) },
          ]),
        ),
      ),
    ).toEqual([]);
  });
});

describe("an agent's question for the person", () => {
  const ASKED = {
    v: 1,
    question_id: 'q1',
    tool_call_id: 'c1',
    agent: 'po',
    turn_id: 't1',
    question: 'Entrega aos domingos?',
    options: ['Sim', 'Não'],
    why: 'O plano de entregas depende disso',
  };
  const DECISION = {
    v: 1,
    data: { question: 'Preço?', answer: 'R$ 30', decided_by: 'po', reason: 'Média do bairro' },
  };
  const PO_HANDOFF = {
    v: 1,
    handoff_id: 'h2',
    from_agent: 'po',
    to_agent: 'arquiteto',
    artifact_id: null,
    status: 'offered',
  };

  it('waits in Needs you with its options until answered, and the lane waits meanwhile', () => {
    const asked = log(
      ['turn.started', { v: 1, agent: 'po', turn_id: 't1', kind: 'message' }, 'po'],
      ['agent.activated', { v: 1, agent: 'po', handoff_id: 'h1' }],
      ['person.asked', ASKED, 'po'],
    );
    const view = foldSession(asked);
    expect(needsYou(view)).toMatchObject([
      {
        kind: 'question',
        questionId: 'q1',
        agent: 'po',
        question: 'Entrega aos domingos?',
        options: ['Sim', 'Não'],
        why: 'O plano de entregas depende disso',
      },
    ]);
    expect(view.lanes).toEqual([{ agent: 'po', status: 'waiting' }]);
    const answered = foldSession([
      ...asked,
      ...log([
        'person.answered',
        { v: 1, question_id: 'q1', agent: 'po', answer: 'Não', decide_yourself: false },
        'user',
      ]).map((event) => ({ ...event, seq: 4, id: 'event-4' })),
    ]);
    expect(needsYouCount(answered)).toBe(0);
    expect(answered.questions).toMatchObject([{ status: 'answered', answer: 'Não' }]);
    expect(answered.lanes).toEqual([{ agent: 'po', status: 'working' }]);
  });

  it('lists the decisions an agent made by itself on its next handoff, and only there', () => {
    const view = foldSession(
      log(
        ['artifact.decision', DECISION, 'po'],
        [
          'artifact.decision',
          { ...DECISION, data: { ...DECISION.data, decided_by: 'person' } },
          'po',
        ],
        ['handoff.offered', PO_HANDOFF, 'po'],
        ['handoff.offered', { ...PO_HANDOFF, handoff_id: 'h3' }, 'po'],
      ),
    );
    expect(view.handoffs['h2']?.decisions).toEqual([
      { seq: 1, question: 'Preço?', answer: 'R$ 30', reason: 'Média do bairro', decidedBy: 'po' },
    ]);
    expect(view.handoffs['h3']?.decisions).toEqual([]);
  });
});
