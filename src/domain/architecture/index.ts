export type { VersionedArtifactDefinition } from './artifact-definition.ts';
export { versionedArtifact } from './artifact-definition.ts';
export type { ArchitectureArtifactType } from './artifact-definitions.ts';
export { architectureArtifacts } from './artifact-definitions.ts';
export type { C4Actor, C4Diagram, C4Relation } from './c4-diagram-schema.ts';
export {
  C4_ACTOR_KINDS,
  C4_SYSTEM_ENDPOINT,
  MAX_C4_ACTORS,
  MAX_C4_RELATIONS,
  c4DiagramArtifact,
  c4DiagramSchema,
} from './c4-diagram-schema.ts';
export type { C4ContainerView } from './c4-container-view.ts';
export { deriveC4ContainerView } from './c4-container-view.ts';
export type { VersionedDeclaration } from './current-version.ts';
export { currentVersion } from './current-version.ts';
export type {
  DeclarationProblem,
  DeclarationProblemCode,
  DeclarationRefusal,
} from './declaration-problems.ts';
export { ignoredArgumentNames } from './ignored-arguments.ts';
export type {
  ListModuleContractsInput,
  ListedModule,
  ModuleContractsListing,
  ModuleContractsListingData,
} from './list-module-contracts.ts';
export { MAX_LISTED_CONTRACT_ITEMS, listModuleContractsForDev } from './list-module-contracts.ts';
export type {
  ContractItem,
  ContractItemType,
  ModuleContract,
  ModuleContracts,
} from './module-contracts-schema.ts';
export {
  CONTRACT_ITEM_TYPES,
  MAX_ASSINATURA_CHARACTERS,
  MAX_CONTRACT_ITEMS_PER_MODULE,
  MAX_DESCRICAO_CHARACTERS,
  moduleContractsArtifact,
  moduleContractsSchema,
} from './module-contracts-schema.ts';
export type { DependencyEdges } from './module-cycles.ts';
export { findDependencyCycles, formatCycle } from './module-cycles.ts';
export type { ModuleGraphInput, ModuleMapValidation } from './module-graph.ts';
export { validateModuleMap } from './module-graph.ts';
export type { ModuleDeclaration, ModuleMap } from './module-map-schema.ts';
export {
  MAX_MODULES,
  MAX_MODULE_NAME_CHARACTERS,
  MODULE_NAME_PATTERN,
  moduleMapArtifact,
  moduleMapSchema,
  moduleNameSchema,
} from './module-map-schema.ts';
export type { ModuleRoute, ModuleRouting } from './module-routing-schema.ts';
export { moduleRoutingArtifact, moduleRoutingSchema } from './module-routing-schema.ts';
export type { ModuleRelation, ModuleScope } from './module-scope.ts';
export { scopeModules } from './module-scope.ts';
export type { ProjectImage } from './project-image-schema.ts';
export { projectImageArtifact, projectImageSchema } from './project-image-schema.ts';
export { MAX_PROBLEMS_IN_REASON } from './refusal.ts';
export type { TopologicalOrder } from './topological-order.ts';
export { topologicalOrder } from './topological-order.ts';
export { validateC4DiagramDeclaration } from './validate-c4-diagram.ts';
export type { DeclarationCheck, DeclarationValidation } from './validate-declaration.ts';
export { validateDeclaration } from './validate-declaration.ts';
export { validateModuleContractsDeclaration } from './validate-module-contracts.ts';
export { validateModuleMapDeclaration } from './validate-module-map.ts';
export { validateModuleRoutingDeclaration } from './validate-module-routing.ts';
export { defaultCheckSkipped, moduleCheck, type ModuleCheck } from './module-check.ts';
export { checkMapProblem } from './check-map-problem.ts';
export {
  CHECK_EXCERPT_LIMITS,
  checkOutputExcerpt,
  type ExcerptLimits,
} from './check-output-excerpt.ts';
export {
  ARCHITECTURE_TYPES,
  currentArchitecture,
  type ArtifactVersion,
  type ProjectArchitecture,
} from './current-architecture.ts';
export { skippedTests } from './skipped-tests.ts';
