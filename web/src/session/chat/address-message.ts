/**
 * Who a message is for and what it says: `@slug ` at the start names an active agent (and is taken off the
 * text); otherwise the agent picked by the composer, or none (the server's current addressee).
 */
export function addressMessage(
  raw: string,
  picked: string | null,
  activeAgents: readonly string[],
): { text: string; to: string | null } {
  const match = /^@([a-z][a-z0-9_:-]*)\s+([\s\S]*)$/.exec(raw.trimStart());
  if (match !== null && activeAgents.includes(match[1]!) && match[2]!.trim() !== '')
    return { text: match[2]!, to: match[1]! };
  return { text: raw, to: picked };
}
