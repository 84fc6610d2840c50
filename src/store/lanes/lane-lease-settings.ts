/** The lease length when FORJA_LANE_LEASE_SECONDS is unset (ADR 0170). */
export const DEFAULT_LANE_LEASE_SECONDS = 30;

/**
 * FORJA_LANE_LEASE_SECONDS: how long a lane stays with a process that stopped renewing it (died, or stalled)
 * before another process may take it over. A whole number of seconds from 1 to 3600.
 */
export function readLaneLeaseSettings(
  env: NodeJS.ProcessEnv,
): { ok: true; leaseMs: number } | { ok: false; variable: string; message: string } {
  const raw = env.FORJA_LANE_LEASE_SECONDS?.trim();
  if (raw === undefined || raw === '')
    return { ok: true, leaseMs: DEFAULT_LANE_LEASE_SECONDS * 1000 };
  const seconds = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isInteger(seconds) || seconds < 1 || seconds > 3600)
    return {
      ok: false,
      variable: 'FORJA_LANE_LEASE_SECONDS',
      message: `FORJA_LANE_LEASE_SECONDS must be a whole number of seconds from 1 to 3600, not "${env.FORJA_LANE_LEASE_SECONDS}".`,
    };
  return { ok: true, leaseMs: seconds * 1000 };
}
