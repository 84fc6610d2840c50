/** Thrown when configuration names a tokenizer that does not exist. */
export class UnknownTokenizerError extends Error {
  override readonly name = 'UnknownTokenizerError';
  readonly tokenizerName: string;

  constructor(tokenizerName: string, knownNames: readonly string[]) {
    super(`unknown tokenizer '${tokenizerName}' (expected one of: ${knownNames.join(', ')})`);
    this.tokenizerName = tokenizerName;
  }
}
