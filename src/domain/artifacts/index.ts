export type { ArtifactDefinition } from './artifact-definition.ts';
export {
  ARTIFACT_PAYLOAD_VERSION,
  StoredArtifactPayloadSchema,
  artifactEvent,
  artifactEventType,
  artifactTypeOf,
} from './artifact-payload.ts';
export type { ArtifactPayload } from './artifact-payload.ts';
export {
  CORE_ARTIFACT_DEFINITIONS,
  createArtifactRegistry,
  defaultArtifactRegistry,
} from './artifact-registry.ts';
export type { ArtifactRegistry } from './artifact-registry.ts';
export { requiredText, textList } from './artifact-text.ts';
export {
  EPIC_ID_PATTERN,
  EpicSchema,
  STORY_ID_PATTERN,
  StorySchema,
  DeclaredTaskSchema,
  TASK_ID_PATTERN,
  TaskSchema,
  epicDefinition,
  storyDefinition,
  taskDefinition,
} from './backlog.ts';
export type { Epic, Story, Task } from './backlog.ts';
export { BUSINESS_RULE_TYPE, BusinessRuleSchema, businessRuleDefinition } from './business-rule.ts';
export type { BusinessRule } from './business-rule.ts';
export { DECISION_TYPE, DecisionSchema, decisionDefinition } from './decision.ts';
export type { Decision } from './decision.ts';
export { checkOrigin, MAX_ORIGIN_SEQS } from './check-origin.ts';
export { formatIssues } from './format-issues.ts';
export { PRODUCT_BRIEF_TYPE, ProductBriefSchema, productBriefDefinition } from './product-brief.ts';
export type { ProductBrief } from './product-brief.ts';
export { validateArtifactData } from './validate-artifact-data.ts';
export type { ArtifactDataValidation } from './validate-artifact-data.ts';
export { validateEmitArtifact } from './validate-emit-artifact.ts';
export type {
  EmitArtifactRefusalCode,
  EmitArtifactResult,
  EmittedArtifact,
} from './validate-emit-artifact.ts';
export { BACKLOG_TYPES, currentBacklog, splitNote, type Backlog } from './current-backlog.ts';
export {
  EARLIER_SESSION_TYPES,
  earlierSessions,
  type EarlierSession,
} from './earlier-sessions.ts';
