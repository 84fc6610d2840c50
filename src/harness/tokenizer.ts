/** A token count and whether it is an estimate (every count is flagged, never silently approximate). */
export interface TokenCount {
  readonly tokens: number;
  readonly estimated: boolean;
}

/**
 * The tokenizer port. The assembler only ever calls this, so a real tokenizer replaces the estimate by
 * configuration (see tokenizer-from-name.ts) without touching assembly code.
 */
export interface Tokenizer {
  readonly name: string;
  count(text: string): TokenCount;
  /**
   * Optional: the count of `parts.join('')` without building the string. It must equal
   * `count(parts.join(''))`. It exists because concatenating then measuring megabytes of text costs several
   * milliseconds in V8 (cons strings are flattened), which the assembler's budget checks would pay each probe.
   */
  countJoined?(parts: readonly string[]): TokenCount;
}

/** Counts the concatenation of `parts`, through the tokenizer's fast path when it has one. */
export function countJoined(tokenizer: Tokenizer, parts: readonly string[]): TokenCount {
  if (tokenizer.countJoined !== undefined) return tokenizer.countJoined(parts);
  return tokenizer.count(parts.join(''));
}
