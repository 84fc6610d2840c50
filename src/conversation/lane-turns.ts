import type { inLane, startAndContinue } from './run-agent-turn.ts';

/**
 * How the line's follow-ups (`merge-line.ts`, `route-blocks.ts`) queue a turn in an agent's lane.
 * `run-agent-turn.ts` runs them after a turn and passes its own functions, so they do not import it back:
 * the module graph has no runtime cycle (ADR 0235).
 */
export interface LaneTurns {
  inLane: typeof inLane;
  startAndContinue: typeof startAndContinue;
}
