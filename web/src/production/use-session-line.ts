import { useEffect, useState } from 'react';
import { getJson } from '../api/client.ts';
import type { SessionLine } from './module-status.ts';

const REFRESH_DELAY_MS = 300;

/** `GET /api/sessions/:id/line`, fetched again shortly after the log moves (`refreshKey`); null until it answers. */
export function useSessionLine(sessionId: string, refreshKey: number): SessionLine | null {
  const [line, setLine] = useState<SessionLine | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `refreshKey` (the log's last seq) says when to fetch again.
  useEffect(() => {
    let current = true;
    const timer = setTimeout(() => {
      getJson<SessionLine>(`/api/sessions/${encodeURIComponent(sessionId)}/line`).then(
        (answer) => current && setLine(answer),
        // The map still shows what the log says; the next change of the log asks again.
        () => undefined,
      );
    }, REFRESH_DELAY_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [sessionId, refreshKey]);
  return line;
}
