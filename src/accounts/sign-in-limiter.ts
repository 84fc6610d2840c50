/** What the limiter answers: go ahead, or wait this long. */
export type SignInAllowance = { ok: true } | { ok: false; retryAfterSeconds: number };

export interface SignInLimiter {
  /** Whether another attempt for this account from this address may be checked now. */
  allow(username: string, address: string): SignInAllowance;
  /** Records a failed attempt (a wrong password or an unknown name). */
  failed(username: string, address: string): void;
  /** A success clears the account's failures (not the address's: one right password does not excuse many wrong ones). */
  succeeded(username: string): void;
}

export interface SignInLimits {
  perAccount: number;
  perAddress: number;
  windowMs: number;
  clock: () => number;
}

const MAX_TRACKED_KEYS = 10_000;

export const DEFAULT_SIGN_IN_LIMITS: SignInLimits = {
  perAccount: 5,
  perAddress: 20,
  windowMs: 15 * 60_000,
  clock: Date.now,
};

/**
 * Failed sign-ins counted in a sliding window, per account and per client address, in memory (ADR 0100):
 * at most `perAccount` failures for one name and `perAddress` from one address in `windowMs`.
 */
export function createSignInLimiter(limits: SignInLimits = DEFAULT_SIGN_IN_LIMITS): SignInLimiter {
  const failures = new Map<string, number[]>();

  const recent = (key: string): number[] => {
    const since = limits.clock() - limits.windowMs;
    const kept = (failures.get(key) ?? []).filter((at) => at > since);
    if (kept.length === 0) failures.delete(key);
    else failures.set(key, kept);
    return kept;
  };
  const waitFor = (times: number[], limit: number) =>
    times.length < limit
      ? 0
      : Math.ceil((times[times.length - limit]! + limits.windowMs - limits.clock()) / 1000);

  return {
    allow(username, address) {
      const wait = Math.max(
        waitFor(recent(`account:${username}`), limits.perAccount),
        waitFor(recent(`address:${address}`), limits.perAddress),
      );
      return wait > 0 ? { ok: false, retryAfterSeconds: wait } : { ok: true };
    },
    failed(username, address) {
      // Many names tried once each must not grow the map for ever: forget every window that has passed.
      if (failures.size > MAX_TRACKED_KEYS) for (const key of [...failures.keys()]) recent(key);
      const now = limits.clock();
      for (const key of [`account:${username}`, `address:${address}`])
        failures.set(key, [...recent(key), now]);
    },
    succeeded(username) {
      failures.delete(`account:${username}`);
    },
  };
}
