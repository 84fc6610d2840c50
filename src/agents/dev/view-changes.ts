import {
  currentArchitecture,
  moduleCheck,
  type ProjectArchitecture,
  scopeModules,
  type ContractItem,
} from '../../domain/architecture/index.ts';
import {
  artifactEventType,
  type Backlog,
  currentBacklog,
  type Task,
} from '../../domain/artifacts/index.ts';
import {
  EVENT_TYPES,
  turnInProgress,
  type ConversationState,
  type SessionEvent,
} from '../../domain/conversation/index.ts';
import { devBlocks } from './dev-blocks.ts';

const DEV_PREFIX = 'dev:';
const DECLARATIONS = new Set([
  artifactEventType('module_contracts'),
  artifactEventType('module_map'),
  artifactEventType('task'),
]);
/** At most this many changes are listed; the rest are counted (the contracts tool reads them whole). */
export const MAX_LISTED_VIEW_CHANGES = 40;

/** One contract item as a dev sees it: whose, how the dev relates to it, and its text. */
interface ViewItem {
  module: string;
  relation: 'own' | 'consumed';
  item: ContractItem;
}

/** What a dev's work rests on: its own and its consumed modules' contract items (by key), its check and its tasks. */
interface DevView {
  contractsVersion: number | null;
  mapVersion: number | null;
  items: Map<string, ViewItem>;
  check: string | null;
  /** The module's tasks by id (a split task gives way to its parts, ADR 0383). */
  tasks: Map<string, Task>;
}

export type ViewChange =
  | { kind: 'added' | 'removed'; entry: ViewItem }
  | { kind: 'changed'; before: ViewItem; after: ViewItem }
  | { kind: 'check'; before: string | null; after: string | null }
  | { kind: 'task_added' | 'task_removed'; task: Task };

/**
 * What names an item across versions: a route's method and path, else the leading identifier
 * (`listarPaes(): Pao[]` → `listarPaes`, `Pao { … }` → `Pao`), else the whole signature.
 */
function itemName(item: ContractItem): string {
  const signature = item.assinatura.trim();
  const route = /^(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)\s+\S+/i.exec(signature);
  if (route !== null) return route[0].replace(/\s+/, ' ');
  const identifier = /^[\p{L}_$][\p{L}\p{N}_$.]*/u.exec(signature);
  return identifier === null ? signature : identifier[0];
}

/** The dev's view as an architecture and a backlog (folded from the session's own declarations) leave it. Pure. */
function devViewOf(
  { architecture, backlog }: { architecture: ProjectArchitecture; backlog: Backlog },
  module: string,
): DevView {
  const map = architecture.module_map?.data ?? null;
  const contracts = architecture.module_contracts?.data ?? null;
  const items = new Map<string, ViewItem>();
  const declared = map?.modules.find((entry) => entry.name === module);
  if (map !== null && contracts !== null) {
    const scope = scopeModules(module, map);
    const modules = [
      ...(scope.own === null ? [] : [{ name: scope.own, relation: 'own' as const }]),
      ...scope.consumed.map((name) => ({ name, relation: 'consumed' as const })),
    ];
    for (const { name, relation } of modules) {
      const expoe = contracts.contratos.find((contract) => contract.modulo === name)?.expoe ?? [];
      const names = expoe.map(itemName);
      expoe.forEach((item, index) => {
        // Two items of one name (overloads) are told apart by their whole signature.
        const repeated = names.indexOf(names[index]!) !== names.lastIndexOf(names[index]!);
        const key = `${name}\u0000${item.tipo}\u0000${repeated ? item.assinatura : names[index]}`;
        items.set(key, { module: name, relation, item });
      });
    }
  }
  return {
    contractsVersion: contracts?.version ?? null,
    mapVersion: map?.version ?? null,
    items,
    check: declared === undefined ? null : (moduleCheck(declared)?.command ?? null),
    tasks: new Map(
      backlog.tasks.filter((task) => task.module === module).map((task) => [task.id, task]),
    ),
  };
}

const sameItem = (left: ContractItem, right: ContractItem) =>
  left.assinatura === right.assinatura && (left.descricao ?? '') === (right.descricao ?? '');

/** What changed between two views of one dev: items added, removed or changed, and its check. Pure. */
export function devViewChanges(before: DevView, after: DevView): ViewChange[] {
  const changes: ViewChange[] = [];
  for (const [key, entry] of after.items) {
    const old = before.items.get(key);
    if (old === undefined) changes.push({ kind: 'added', entry });
    else if (!sameItem(old.item, entry.item) || old.relation !== entry.relation)
      changes.push({ kind: 'changed', before: old, after: entry });
  }
  for (const [key, entry] of before.items)
    if (!after.items.has(key)) changes.push({ kind: 'removed', entry });
  if (before.check !== after.check)
    changes.push({ kind: 'check', before: before.check, after: after.check });
  for (const [id, task] of after.tasks)
    if (!before.tasks.has(id)) changes.push({ kind: 'task_added', task });
  for (const [id, task] of before.tasks)
    if (!after.tasks.has(id)) changes.push({ kind: 'task_removed', task });
  return changes;
}

/** Seqs of the agent's `turn.started`, in order. */
function turnStarts(events: readonly SessionEvent[], agent: string): number[] {
  return events
    .filter(
      (event) =>
        event.type === EVENT_TYPES.turnStarted &&
        (event.payload as { agent?: unknown }).agent === agent,
    )
    .map((event) => event.seq);
}

/**
 * Where "since the dev's previous turn" starts: the `turn.started` before the one in progress, or with none in
 * progress (a preview of the next turn) its last; undefined when it had no such turn.
 */
export function previousTurnStart(
  state: ConversationState,
  events: readonly SessionEvent[],
  agent: string,
): number | undefined {
  const starts = turnStarts(events, agent);
  return turnInProgress(state, agent) === null ? starts.at(-1) : starts.at(-2);
}

/**
 * The architecture and the backlog the map's, contracts' and tasks' declarations leave after each prefix of
 * the log, folded once per distinct prefix: only those declarations make a view, and they are few.
 */
function architectures(events: readonly SessionEvent[]) {
  const declarations = events.filter((event) => DECLARATIONS.has(event.type));
  const folded = new Map<number, { architecture: ProjectArchitecture; backlog: Backlog }>();
  /** The architecture and backlog of the log up to `seq` (all of it when omitted), and whether a declaration came after. */
  return (seq = Number.POSITIVE_INFINITY) => {
    const count = declarations.filter((event) => event.seq <= seq).length;
    if (!folded.has(count)) {
      const prefix = declarations.slice(0, count);
      folded.set(count, {
        architecture: currentArchitecture(prefix),
        backlog: currentBacklog(prefix),
      });
    }
    return { ...folded.get(count)!, later: count < declarations.length };
  };
}

/** The changes to `agent`'s view between the log up to `since` and the whole log, or [] when none. */
function changesSince(
  at: ReturnType<typeof architectures>,
  agent: string,
  since: number,
): { changes: ViewChange[]; now: DevView } {
  const module = agent.slice(DEV_PREFIX.length);
  const now = devViewOf(at(), module);
  const before = at(since);
  if (!before.later) return { changes: [], now };
  return { changes: devViewChanges(devViewOf(before, module), now), now };
}

/**
 * The dev lanes owed a turn because their view changed: a `module_contracts` or `module_map` version or a task
 * declared after the lane's last turn started changed the contract items of its module or of a module it
 * consumes, its check, or its tasks (a split, a task moved to or from its module; ADR 0384). A lane that never
 * had a turn is owed none (its kickoff reads the current view), nor a lane whose block is open or resolved
 * but not yet told: it waits for its answer, and the turn that brings it (`dev.unblocked`) lists the changes
 * too (the Arquiteto may still be at work on them).
 * Decided from the log alone, so it runs once also after a restart: the turn it is owed moves its last start
 * past the change.
 */
export function viewChangeTurnsOwed(events: readonly SessionEvent[]): string[] {
  const blocked = new Set(
    devBlocks(events)
      .filter((block) => block.status !== 'unblocked')
      .map((block) => block.agent),
  );
  const lastStart = new Map<string, number>();
  let lastDeclaration = 0;
  for (const event of events) {
    if (DECLARATIONS.has(event.type)) lastDeclaration = event.seq;
    if (event.type !== EVENT_TYPES.turnStarted) continue;
    const agent = (event.payload as { agent?: unknown }).agent;
    if (typeof agent === 'string' && agent.startsWith(DEV_PREFIX)) lastStart.set(agent, event.seq);
  }
  const at = architectures(events);
  return [...lastStart]
    .filter(
      ([agent, since]) =>
        !blocked.has(agent) &&
        since < lastDeclaration &&
        changesSince(at, agent, since).changes.length > 0,
    )
    .map(([agent]) => agent);
}

const RELATION = { own: 'seu módulo', consumed: 'você consome' } as const;

const oneLine = (text: string) => text.replace(/\s*[\r\n]+\s*/g, ' ');
const itemText = ({ item }: ViewItem) =>
  `[${item.tipo}] ${oneLine(item.assinatura)}${item.descricao ? ` — ${oneLine(item.descricao)}` : ''}`;

function changeLine(change: ViewChange, module: string): string {
  switch (change.kind) {
    case 'added':
      return `- ${change.entry.module} (${RELATION[change.entry.relation]}), adicionado: ${itemText(change.entry)}`;
    case 'removed':
      return `- ${change.entry.module} (${RELATION[change.entry.relation]}), removido: ${itemText(change.entry)}`;
    case 'changed':
      return `- ${change.after.module} (${RELATION[change.after.relation]}), alterado: agora ${itemText(change.after)} (antes: ${itemText(change.before)})`;
    case 'check':
      return `- check do seu módulo ${module}: agora ${change.after === null ? 'nenhum' : `\`${oneLine(change.after)}\``} (antes: ${change.before === null ? 'nenhum' : `\`${oneLine(change.before)}\``})`;
    case 'task_added':
      return `- tarefa nova do seu módulo: ${change.task.id} — ${oneLine(change.task.title)}${change.task.split_from === undefined ? '' : ` (parte de ${change.task.split_from})`}; está em "Suas tarefas"`;
    case 'task_removed':
      return `- ${change.task.id} — ${oneLine(change.task.title)} não é mais tarefa do seu módulo (dividida, movida ou substituída pelo Arquiteto): não a termine`;
  }
}

/**
 * The dev's part of its task state when the Arquiteto changed its view since its previous turn (the turn
 * before the one in progress; with none in progress, its last): what was added, removed or changed, with the
 * new text, and its check. Null when nothing changed or the dev had no earlier turn.
 */
export function renderViewChanges(
  state: ConversationState,
  events: readonly SessionEvent[],
  agent: string,
): string | null {
  const since = previousTurnStart(state, events, agent);
  if (since === undefined) return null;
  const { changes, now } = changesSince(architectures(events), agent, since);
  if (changes.length === 0) return null;
  const module = agent.slice(DEV_PREFIX.length);
  const listed = changes
    .slice(0, MAX_LISTED_VIEW_CHANGES)
    .map((change) => changeLine(change, module));
  const left = changes.length - listed.length;
  return [
    `Mudou desde o seu último turno — o Arquiteto declarou contratos na versão ${now.contractsVersion ?? '(nenhuma)'} e mapa de módulos na versão ${now.mapVersion ?? '(nenhuma)'}; o que você já escreveu segue a versão anterior: revise-o contra isto antes de seguir.`,
    ...listed,
    ...(left > 0
      ? [`[… mais ${left} mudanças: leia os contratos inteiros com listar_contratos_de_modulos]`]
      : []),
  ].join('\n');
}
