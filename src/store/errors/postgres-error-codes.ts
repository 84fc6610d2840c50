/** SQLSTATE codes Forja reacts to; both drivers expose them as `error.code`. */
const UNIQUE_VIOLATION = '23505';
const FOREIGN_KEY_VIOLATION = '23503';

const codeOf = (error: unknown) =>
  typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;

export const isUniqueViolation = (error: unknown) => codeOf(error) === UNIQUE_VIOLATION;
export const isForeignKeyViolation = (error: unknown) => codeOf(error) === FOREIGN_KEY_VIOLATION;
