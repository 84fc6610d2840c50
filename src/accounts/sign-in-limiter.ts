import { isIPv4, isIPv6 } from 'node:net';

/** What the limiter answers: go ahead, or wait this long. */
export type SignInAllowance = { ok: true } | { ok: false; retryAfterSeconds: number };

export interface SignInLimiter {
  /** Whether another attempt for this account from this address may be checked now. */
  allow(username: string, address: string): Promise<SignInAllowance>;
  /** Records a failed attempt (a wrong password or an unknown name). */
  failed(username: string, address: string): Promise<void>;
  /** A success clears this address's failures for the account (not the address's own: many wrong names stay). */
  succeeded(username: string, address: string): Promise<void>;
}

/** Where failures are counted: the database the processes share (`src/store/accounts/sign-in-failures.ts`). */
export interface SignInFailureStore {
  /** Seconds until every one of `keys` may be tried again (0: now). */
  waitSeconds(keys: string[]): Promise<number>;
  /** Counts a failure of `key` and blocks it for `delayOf(failures in the run)` seconds. */
  record(
    key: string,
    forgetAfterSeconds: number,
    delayOf: (failures: number) => number,
  ): Promise<void>;
  clear(key: string): Promise<void>;
}

/** How failures slow the next attempt (ADR 0317). */
export interface SignInBackoff {
  /** Failures for one account from one address that cost no wait. */
  freePerAccountAndAddress: number;
  /** Failures from one address, whatever the names, that cost no wait. */
  freePerAddress: number;
  /** The first wait; each further failure doubles it. */
  baseDelaySeconds: number;
  /** No wait is longer than this. */
  maxDelaySeconds: number;
  /** A run of failures is forgotten this long after its last one. */
  forgetAfterSeconds: number;
}

export const DEFAULT_SIGN_IN_BACKOFF: SignInBackoff = {
  freePerAccountAndAddress: 5,
  freePerAddress: 20,
  baseDelaySeconds: 1,
  maxDelaySeconds: 15 * 60,
  forgetAfterSeconds: 60 * 60,
};

/** Past this many doublings the wait is the maximum anyway; it keeps 2^n finite. */
const MAX_DOUBLINGS = 30;

/**
 * The wait after the `failures`-th failure of a run: none while free, then base, 2·base, 4·base, … up to the
 * maximum. Pure (a property test holds it: never negative, never above the maximum, never shorter after
 * another failure).
 */
export function backoffSeconds(failures: number, free: number, backoff: SignInBackoff): number {
  if (failures <= free) return 0;
  const doublings = Math.min(failures - free - 1, MAX_DOUBLINGS);
  return Math.min(backoff.maxDelaySeconds, backoff.baseDelaySeconds * 2 ** doublings);
}

/**
 * Failed sign-ins slowed with exponential backoff, per account and address and per address, stored in the
 * database so every process sharing it counts the same failures (ADR 0317). No account is ever locked: the
 * wait grows only for the address that fails, so the owner signing in from elsewhere is not slowed.
 */
export function createSignInLimiter(
  store: SignInFailureStore,
  backoff: SignInBackoff = DEFAULT_SIGN_IN_BACKOFF,
): SignInLimiter {
  const keys = (username: string, address: string) => {
    const client = clientKey(address);
    return { pair: `pair:${client} ${username}`, address: `address:${client}` };
  };
  return {
    async allow(username, address) {
      const { pair, address: byAddress } = keys(username, address);
      const wait = await store.waitSeconds([pair, byAddress]);
      return wait > 0 ? { ok: false, retryAfterSeconds: wait } : { ok: true };
    },
    async failed(username, address) {
      const { pair, address: byAddress } = keys(username, address);
      for (const [key, free] of [
        [pair, backoff.freePerAccountAndAddress],
        [byAddress, backoff.freePerAddress],
      ] as const)
        await store.record(key, backoff.forgetAfterSeconds, (failures) =>
          backoffSeconds(failures, free, backoff),
        );
    },
    async succeeded(username, address) {
      await store.clear(keys(username, address).pair);
    },
  };
}

/**
 * The client a failure is counted for: an IPv4 address (also written IPv4-mapped, `::ffff:1.2.3.4`), or an IPv6
 * address's /64 — one host is given a whole /64, so counting single IPv6 addresses would let it rotate past
 * every limit. Anything else (an in-process request) is its own key. Pure.
 */
export function clientKey(address: string): string {
  const plain = address.replace(/%.*$/, '').toLowerCase();
  const mapped = /^::ffff:(.+)$/.exec(plain)?.[1];
  if (mapped !== undefined && isIPv4(mapped)) return mapped;
  if (!isIPv6(plain)) return plain;
  return `${expandIPv6(plain).slice(0, 4).join(':')}::/64`;
}

/** The eight groups of an IPv6 address, without leading zeros (`::` expanded, a trailing IPv4 part converted). */
function expandIPv6(address: string): string[] {
  const [head = '', tail] = address.split('::');
  const groups = (part: string) => (part === '' ? [] : part.split(':').flatMap(ipv4AsGroups));
  const left = groups(head);
  const right = tail === undefined ? [] : groups(tail);
  const middle = Array(8 - left.length - right.length).fill('0');
  return [...left, ...middle, ...right].map((group) => Number.parseInt(group, 16).toString(16));
}

function ipv4AsGroups(group: string): string[] {
  if (!isIPv4(group)) return [group];
  const [a, b, c, d] = group.split('.').map(Number) as [number, number, number, number];
  return [((a << 8) | b).toString(16), ((c << 8) | d).toString(16)];
}
