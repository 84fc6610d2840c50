/**
 * Splits text into streaming deltas, one word (with the whitespace after it) per delta, so a scripted
 * turn streams the way a real model does. Deterministic, and the deltas always join back to the text.
 */
export function splitIntoWordDeltas(text: string): string[] {
  const words = text.match(/\S+\s*/g);
  if (words === null) return text === '' ? [] : [text];
  const leadingWhitespace = text.slice(0, text.length - words.join('').length);
  words[0] = leadingWhitespace + words[0];
  return words;
}
