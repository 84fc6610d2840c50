import type { DevProgress } from '../session/fold/session-view.ts';

/** A module's state on the line as the map shows it. */
export type ModuleStatus =
  | 'notStarted'
  | 'working'
  | 'blocked'
  | 'checking'
  | 'finished'
  | 'merged'
  | 'conflict'
  | 'failed';

const LINE_STATES = new Set(['working', 'blocked', 'finished', 'merged', 'conflict', 'failed']);

/**
 * One module's status: the line's state (merge, conflict and failed checks are only known there), with
 * what the log says since: its dev running its check (`finish_task` in flight) shows "checking", and a
 * module whose dev has not started is "not started" rather than the line's default "working", an open
 * block shows at once. Without the line's answer yet, the log's part alone.
 */
export function moduleStatus(input: {
  lineState: string | null;
  dev: DevProgress | undefined;
  checking: boolean;
  /** The module's `dev.blocked` not yet `dev.unblocked` (the line's own rule), folded from the log. */
  openBlocks: number;
}): ModuleStatus {
  const { dev, checking, openBlocks } = input;
  const lineState =
    input.lineState !== null && LINE_STATES.has(input.lineState) ? input.lineState : null;
  if (lineState === 'merged') return 'merged';
  if (checking) return 'checking';
  const started = dev !== undefined && dev.activeSince !== null;
  if (lineState !== null && lineState !== 'working') return lineState as ModuleStatus;
  if (!started) return 'notStarted';
  // The line's "working" is its default: a block the log has since (the line is fetched a moment later) shows.
  if (openBlocks > 0) return 'blocked';
  if (lineState === null && dev.finished.length > 0) return 'finished';
  return 'working';
}
