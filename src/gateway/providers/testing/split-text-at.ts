/** Cuts text at the given positions (taken modulo its length, deduplicated): for property tests of reassembly. */
export function splitTextAt(text: string, cuts: number[]): string[] {
  const positions = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort(
    (left, right) => left - right,
  );
  const pieces: string[] = [];
  let start = 0;
  for (const position of [...positions, text.length]) {
    pieces.push(text.slice(start, position));
    start = position;
  }
  return pieces;
}
