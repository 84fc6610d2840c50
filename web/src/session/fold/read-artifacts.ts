import type { ArtifactEnvelope } from '../../../../src/domain/contract/index.ts';
import { fields, list, optionalText, text, texts, whole } from './read.ts';
import type {
  BacklogItem,
  BusinessRule,
  ContractItem,
  ModuleContracts,
  ModuleMap,
  ProductBrief,
  Story,
  Task,
} from './session-view.ts';

/** Readers from an `artifact.<type>` payload (`{v, data, origin?}`) to what the page shows. */

type Where = { eventId: string; seq: number };

export function readBusinessRule(
  envelope: ArtifactEnvelope,
  where: Where & { recordedBy: string; revises: number | null },
): BusinessRule {
  const data = fields(envelope.data);
  return {
    ...where,
    title: text(data['title']),
    statement: text(data['statement']),
    origin: [...(envelope.origin ?? [])],
    supersededBy: null,
  };
}

export function readProductBrief(data: unknown, where: Where): ProductBrief {
  const brief = fields(data);
  const version = whole(brief['version'], 1);
  return {
    ...where,
    version: Number.isSafeInteger(version) && version >= 1 ? version : 1,
    title: text(brief['title']),
    summary: text(brief['summary']),
    problem: text(brief['problem']),
    audience: text(brief['audience']),
    goals: texts(brief['goals']),
    outOfScope: texts(brief['out_of_scope']),
    openQuestions: texts(brief['open_questions']),
    ruleRefs: texts(brief['business_rule_refs']),
  };
}

export function readBacklogItem(data: unknown, seq: number): BacklogItem | null {
  const item = fields(data);
  const id = optionalText(item['id']);
  if (id === null) return null;
  return {
    id,
    seq,
    title: text(item['title'], id),
    description: text(item['description']),
    acceptanceCriteria: texts(item['acceptance_criteria']),
  };
}

export function readStory(data: unknown, seq: number): Story | null {
  const item = readBacklogItem(data, seq);
  return item && { ...item, epicId: text(fields(data)['epic_id']) };
}

export function readTask(data: unknown, seq: number): Task | null {
  const item = readBacklogItem(data, seq);
  return (
    item && {
      ...item,
      storyId: text(fields(data)['story_id']),
      module: optionalText(fields(data)['module']),
    }
  );
}

export function readModuleMap(data: unknown): ModuleMap {
  const modules = list(fields(data)['modules']).map((entry) => {
    const module = fields(entry);
    return {
      name: text(module['name']),
      stack: text(module['stack']),
      responsibility: text(module['responsibility']),
      dependsOn: texts(module['dependsOn']),
    };
  });
  return { modules: modules.filter((module) => module.name !== '') };
}

export function readModuleContracts(data: unknown): ModuleContracts {
  const contratos = list(fields(data)['contratos']).map((entry) => {
    const contract = fields(entry);
    const expoe: ContractItem[] = list(contract['expoe']).map((raw) => {
      const item = fields(raw);
      return {
        tipo: text(item['tipo']),
        assinatura: text(item['assinatura']),
        descricao: optionalText(item['descricao']),
      };
    });
    return { modulo: text(contract['modulo']), expoe };
  });
  return { contratos: contratos.filter((contract) => contract.modulo !== '') };
}

/** `version` of a versioned artifact's data; 0 when absent, so such a declaration never wins over a real one. */
export function readVersion(data: unknown): number {
  return whole(fields(data)['version']);
}
