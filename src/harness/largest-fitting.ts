/**
 * The largest `n` in `[0, limit]` for which `fits(n)` holds, given that `fits(0)` holds and `fits` is
 * monotone (true up to some point, false after). Without a hint it gallops up from 1 (1, 2, 4, ...); with
 * one it gallops away from the hint in steps of 1/128 of it, then bisects. Either way every probe is near
 * the answer, so a budget-sized answer is cheap to find even when `limit` is megabytes, which keeps
 * assembly linear in its input; a good hint (a proportional guess) cuts the probes to about ten. Were
 * `fits` not monotone, the result would still satisfy it: every value returned was probed true, or is 0.
 */
export function largestFitting(
  limit: number,
  fits: (candidate: number) => boolean,
  hint = 0,
): number {
  if (limit <= 0) return 0;
  const start = Math.min(Math.max(Math.floor(hint), 0), limit);
  let good = 0;
  let bad = limit + 1;
  let step = Math.max(1, start >> 7);
  if (start > 0 && !fits(start)) {
    bad = start;
    while (bad - step > 0 && !fits(bad - step)) {
      bad -= step;
      step *= 2;
    }
    good = Math.max(0, bad - step);
  } else {
    good = start;
    if (start === 0) step = 1;
    while (good + step <= limit) {
      if (!fits(good + step)) {
        bad = good + step;
        break;
      }
      good += step;
      step *= 2;
    }
    if (bad === limit + 1 && good < limit) {
      if (fits(limit)) return limit;
      bad = limit;
    }
  }
  while (bad - good > 1) {
    const middle = good + Math.floor((bad - good) / 2);
    if (fits(middle)) good = middle;
    else bad = middle;
  }
  return good;
}
