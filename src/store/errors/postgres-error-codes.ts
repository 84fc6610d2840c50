/** SQLSTATE codes Forja reacts to; both drivers expose them as `error.code`. */
const UNIQUE_VIOLATION = '23505';
const FOREIGN_KEY_VIOLATION = '23503';
/** Raised by `forja_append_fenced_events` (migration 0012): the lane's lease is no longer the appender's. */
const LANE_FENCE_REFUSED = 'FJ001';

const codeOf = (error: unknown) =>
  typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;

export const isUniqueViolation = (error: unknown) => codeOf(error) === UNIQUE_VIOLATION;
export const isForeignKeyViolation = (error: unknown) => codeOf(error) === FOREIGN_KEY_VIOLATION;
export const isLaneFenceRefused = (error: unknown) => codeOf(error) === LANE_FENCE_REFUSED;
