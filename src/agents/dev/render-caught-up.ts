import type { SessionEvent } from '../../domain/conversation/index.ts';
import { LINE_EVENT_TYPES, ModuleCaughtUpPayloadSchema } from '../../domain/line/index.ts';

/**
 * The dev's part of its task state when its worktree came from an earlier session's line (ADR 0416): `dev`,
 * holding `main`, was merged into its branch before its first turn (the commit), or could not be — then the
 * conflicting paths, never silently. Null when the session recorded no `module.caught_up` for the module. Pure.
 */
export function renderCaughtUp(events: readonly SessionEvent[], module: string): string | null {
  const update = events
    .filter((event) => event.type === LINE_EVENT_TYPES.caughtUp)
    .map((event) => ModuleCaughtUpPayloadSchema.safeParse(event.payload))
    .flatMap((parsed) => (parsed.success && parsed.data.module === module ? [parsed.data] : []))
    .at(-1);
  if (update === undefined) return null;
  const branch = `dev-${module}`;
  if (update.commit !== undefined)
    return `Seu worktree vem de uma sessão anterior: antes deste turno, dev (com o main de agora) foi mesclado no seu branch ${branch} (commit ${update.commit.slice(0, 12)}). O que os outros módulos e as sessões anteriores levaram ao main está no seu worktree: parta dele.`;
  const conflicts = update.conflicts ?? [];
  return conflicts.length > 0
    ? `Seu worktree vem de uma sessão anterior, e dev (com o main de agora) NÃO pôde ser mesclado no seu branch ${branch}: conflito em ${conflicts.join(', ')}. O merge foi desfeito e o worktree ficou como estava, sem o que main ganhou depois. Leia esses caminhos e deixe o seu trabalho neles de acordo com o que dev tem: o merge de ${branch} em dev vai conflitar ali.`
    : `Seu worktree vem de uma sessão anterior, e dev (com o main de agora) NÃO pôde ser mesclado no seu branch ${branch}: ${update.reason ?? 'sem motivo'}. O worktree ficou como estava, sem o que main ganhou depois.`;
}
