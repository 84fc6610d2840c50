/**
 * SQLSTATEs and driver failures that mean the graph cannot be used right now rather than that a write was
 * wrong: connection exceptions (class 08), operator intervention (57P01–57P03: shutdown, crash), missing
 * schema or table (3F000, 42P01), lock not available (55P03), insufficient resources (class 53).
 */
const UNAVAILABLE_CODES = new Set(['57P01', '57P02', '57P03', '3F000', '42P01', '55P03']);
const UNAVAILABLE_CLASSES = new Set(['08', '53']);
const DRIVER_MESSAGES =
  /connection terminated|ECONNREFUSED|ECONNRESET|Client has encountered a connection error|PGlite is closed/i;

export function isGraphUnavailable(error: unknown): boolean {
  const code =
    typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  if (typeof code === 'string')
    return UNAVAILABLE_CODES.has(code) || UNAVAILABLE_CLASSES.has(code.slice(0, 2));
  return error instanceof Error && DRIVER_MESSAGES.test(error.message);
}
