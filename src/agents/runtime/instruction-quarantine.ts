import { createHash } from 'node:crypto';
import type { InstructionFileDigest } from '../../domain/line/index.ts';
import type { InstructionSource } from '../../harness/index.ts';

/** The SHA-256 of an instruction file's text as the reader has it (a leading byte-order mark dropped). */
export function instructionDigest(content: string): string {
  return createHash('sha256')
    .update(content.startsWith('\uFEFF') ? content.slice(1) : content, 'utf8')
    .digest('hex');
}

/**
 * The sources without the dev-written instruction files the person has not accepted (ADR 0302): a file
 * source whose path and text are one of `quarantined` is left out, so it governs no agent; it is still a
 * plain file of the repository. Other sources (the database patches, the graph template) pass.
 */
export function withoutQuarantined(
  sources: readonly InstructionSource[],
  quarantined: readonly InstructionFileDigest[],
): InstructionSource[] {
  if (quarantined.length === 0) return [...sources];
  const keys = new Set(quarantined.map((file) => `${file.path}\0${file.sha256}`));
  return sources.filter(
    (source) =>
      (source.priority_kind !== 'root' && source.priority_kind !== 'dir') ||
      !keys.has(`${source.id}\0${instructionDigest(source.content)}`),
  );
}
