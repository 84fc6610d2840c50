import type { Queryable } from '../database.ts';

/** Seconds until every one of `keys` may be tried again (0: now), by the database's clock. */
export async function signInWaitSeconds(database: Queryable, keys: string[]): Promise<number> {
  const result = await database.query<{ wait: number }>(
    `select coalesce(max(ceil(extract(epoch from blocked_until - now()))), 0)::int as wait
     from sign_in_failures where key = any($1::text[]) and blocked_until > now()`,
    [keys],
  );
  return result.rows[0]!.wait;
}

/**
 * Counts one failure for `key` (a run older than `forgetAfterSeconds` starts again at 1) and blocks the key
 * for `delayOf(failures)` seconds from now; a concurrent failure never shortens a block. Also forgets runs
 * that have ended, so the table holds only recent failures.
 */
export async function recordSignInFailure(
  database: Queryable,
  key: string,
  forgetAfterSeconds: number,
  delayOf: (failures: number) => number,
): Promise<void> {
  const counted = await database.query<{ failures: number }>(
    `insert into sign_in_failures as f (key, failures, last_failed_at, blocked_until)
     values ($1, 1, now(), now())
     on conflict (key) do update set
       failures = case when f.last_failed_at < now() - make_interval(secs => $2) then 1 else f.failures + 1 end,
       last_failed_at = now()
     returning failures`,
    [key, forgetAfterSeconds],
  );
  const delay = delayOf(counted.rows[0]!.failures);
  if (delay > 0)
    await database.query(
      `update sign_in_failures set blocked_until = greatest(blocked_until, now() + make_interval(secs => $2))
       where key = $1`,
      [key, delay],
    );
  await database.query(
    'delete from sign_in_failures where last_failed_at < now() - make_interval(secs => $1) and blocked_until < now()',
    [forgetAfterSeconds],
  );
}

export async function clearSignInFailures(database: Queryable, key: string): Promise<void> {
  await database.query('delete from sign_in_failures where key = $1', [key]);
}

/** The sign-in limiter's counts, in `database` (ADR 0317). */
export function signInFailuresIn(database: Queryable) {
  return {
    waitSeconds: (keys: string[]) => signInWaitSeconds(database, keys),
    record: (key: string, forgetAfterSeconds: number, delayOf: (failures: number) => number) =>
      recordSignInFailure(database, key, forgetAfterSeconds, delayOf),
    clear: (key: string) => clearSignInFailures(database, key),
  };
}
