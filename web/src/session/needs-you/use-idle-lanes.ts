import { getJson } from '../../api/client.ts';
import type { IdleLane } from '../../api/types.ts';
import { useApiData } from '../../components/use-api-data.ts';

const REFRESH_DELAY_MS = 300;
const NONE: readonly IdleLane[] = [];

/**
 * `GET /api/sessions/:id/idle-lanes`, read again shortly after the log moves (`refreshKey`): whether a lane is
 * idle is the server's rule (what it owes is derived from the whole log), not folded here. Empty until it answers.
 */
export function useIdleLanes(sessionId: string, refreshKey: number): readonly IdleLane[] {
  const lanes = useApiData(
    () => getJson('/api/sessions/{id}/idle-lanes', { path: { id: sessionId } }),
    `${sessionId}/${refreshKey}`,
    { delayMs: REFRESH_DELAY_MS },
  ).data;
  return lanes?.lanes ?? NONE;
}
