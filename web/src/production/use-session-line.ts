import { getJson } from '../api/client.ts';
import { useApiData } from '../components/use-api-data.ts';
import type { SessionLine } from '../api/types.ts';

const REFRESH_DELAY_MS = 300;

/** `GET /api/sessions/:id/line`, fetched again shortly after the log moves (`refreshKey`); null until it answers. */
export function useSessionLine(sessionId: string, refreshKey: number): SessionLine | null {
  // A failure keeps what was read: the map still shows what the log says; the next change of the log asks again.
  return useApiData(
    () => getJson('/api/sessions/{id}/line', { path: { id: sessionId } }),
    `${sessionId}/${refreshKey}`,
    { delayMs: REFRESH_DELAY_MS },
  ).data;
}
