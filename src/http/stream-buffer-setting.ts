import { DEFAULT_STREAM_BUFFER_BYTES } from './sse-client-queue.ts';

const MIN_STREAM_BUFFER_BYTES = 64 * 1024;
const MAX_STREAM_BUFFER_BYTES = 1024 * 1024 * 1024;

/**
 * `FORJA_STREAM_BUFFER_BYTES`: how many bytes one event-stream client may fall behind before it is
 * disconnected (it resumes from Last-Event-ID; ADR 0140). A whole number from 64 KiB to 1 GiB; unset, 4 MiB.
 */
export function readStreamBufferSetting(
  env: Readonly<Record<string, string | undefined>>,
): { ok: true; bytes: number } | { ok: false; variable: string; message: string } {
  const text = env.FORJA_STREAM_BUFFER_BYTES?.trim();
  if (text === undefined || text === '') return { ok: true, bytes: DEFAULT_STREAM_BUFFER_BYTES };
  const bytes = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (
    !Number.isSafeInteger(bytes) ||
    bytes < MIN_STREAM_BUFFER_BYTES ||
    bytes > MAX_STREAM_BUFFER_BYTES
  ) {
    return {
      ok: false,
      variable: 'FORJA_STREAM_BUFFER_BYTES',
      message: `FORJA_STREAM_BUFFER_BYTES must be a whole number of bytes from ${MIN_STREAM_BUFFER_BYTES} (64 KiB) to ${MAX_STREAM_BUFFER_BYTES} (1 GiB), not "${text}".`,
    };
  }
  return { ok: true, bytes };
}
