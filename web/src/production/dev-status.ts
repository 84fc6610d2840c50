import type { DevProgress, OpenTurn } from '../session/fold/session-view.ts';

export type DevStatus = 'working' | 'waiting' | 'blocked' | 'idle' | 'notStarted';

/** A dev agent's status: its turn running or paused, else blocked if its latest report is a block, else idle. */
export function devStatus(progress: DevProgress, openTurns: readonly OpenTurn[]): DevStatus {
  const turn = openTurns.find((open) => open.agent === progress.agent);
  if (turn) return turn.paused ? 'waiting' : 'working';
  const lastBlock = progress.blocks.at(-1)?.seq ?? 0;
  const lastFinish = progress.finished.at(-1)?.seq ?? 0;
  if (lastBlock > lastFinish) return 'blocked';
  return progress.activeSince === null ? 'notStarted' : 'idle';
}
