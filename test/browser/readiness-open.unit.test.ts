import { describe, expect, it } from 'vitest';
import type { StoredEvent } from '../../web/src/api/types.ts';
import { foldSession } from '../../web/src/session/fold/fold-session.ts';
import { readinessOpen } from '../../web/src/session/fold/readiness-open.ts';

/** Events with seqs 1, 2, 3 … in the order given; ids `event-<seq>`. */
function log(...events: Array<[type: string, payload: unknown]>): StoredEvent[] {
  return events.map(([type, payload], index) => ({
    id: `event-${index + 1}`,
    session_id: 'session',
    seq: index + 1,
    type,
    actor: 'system',
    payload,
    created_at: '2026-01-01T00:00:00Z',
  }));
}

const brief = (title: string, version?: number) =>
  [
    'artifact.product_brief',
    {
      v: 1,
      data: {
        title,
        summary: 's',
        problem: 'p',
        audience: 'a',
        goals: ['g'],
        ...(version ? { version } : {}),
      },
    },
  ] as [string, unknown];
const handoff = (id: string, status: string, artifact: string, reason?: string) =>
  [
    `handoff.${status}`,
    {
      v: 1,
      handoff_id: id,
      from_agent: 'criativo',
      to_agent: 'po',
      artifact_id: artifact,
      status,
      ...(reason ? { reason } : {}),
    },
  ] as [string, unknown];

describe('the readiness button and the brief version', () => {
  it('is back after the brief handoff is rejected, and gone again once v2 is offered', () => {
    const v1 = [brief('First'), handoff('h1', 'offered', 'event-1')] as const;
    expect(readinessOpen(foldSession(log()))).toBe(true);
    expect(readinessOpen(foldSession(log(...v1)))).toBe(false);
    const rejected = log(...v1, handoff('h1', 'rejected', 'event-1', 'pricing'));
    const view = foldSession(rejected);
    expect(readinessOpen(view)).toBe(true);
    expect(view.handoffs['h1']).toMatchObject({ status: 'rejected', reason: 'pricing' });

    const again = foldSession(
      log(
        ...v1,
        handoff('h1', 'rejected', 'event-1', 'pricing'),
        brief('Second', 2),
        handoff('h2', 'offered', 'event-4'),
      ),
    );
    expect(readinessOpen(again)).toBe(false);
    expect(again.brief).toMatchObject({ title: 'Second', version: 2 });
    expect(
      again.chat.filter((item) => item.kind === 'brief').map((item) => [item.title, item.version]),
    ).toEqual([
      ['First', 1],
      ['Second', 2],
    ]);
  });

  it('keeps the highest version current, and reads a brief without a version as v1', () => {
    const view = foldSession(log(brief('Old'), brief('Newer', 3), brief('Stray', 2)));
    expect(view.brief).toMatchObject({ title: 'Newer', version: 3 });
    expect(foldSession(log(brief('Old'))).brief?.version).toBe(1);
  });
});
