import pino, { type Logger } from 'pino';

/** Structured JSON logs on stderr, so stdout stays free for command output (`forja context --json`). */
export function createLogger(level: string): Logger {
  return pino(
    {
      level,
      redact: {
        paths: ['*.apiKey', '*.api_key', '*.password', 'headers.authorization'],
        censor: '[redacted]',
      },
    },
    pino.destination(2),
  );
}
