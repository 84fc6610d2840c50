import type { ModuleMap } from './module-map-schema.ts';

/** The C4 container level as the module map defines it. */
export type C4ContainerView = {
  readonly containers: readonly {
    readonly name: string;
    readonly technology: string;
    readonly description: string;
  }[];
  /** `from` uses `to`: one per `dependsOn` entry. */
  readonly relations: readonly { readonly from: string; readonly to: string }[];
};

/**
 * Derives the container level from the current map: each module is a container (its stack the technology,
 * its responsibility the description) and each `dependsOn` is a relation. Derived, never declared, so the
 * picture cannot disagree with the map the cycle check already accepted (record ADR 0200: the map is the
 * container level).
 */
export function deriveC4ContainerView(map: ModuleMap): C4ContainerView {
  return {
    containers: map.modules.map((module) => ({
      name: module.name,
      technology: module.stack,
      description: module.responsibility,
    })),
    relations: map.modules.flatMap((module) =>
      module.dependsOn.map((dependency) => ({ from: module.name, to: dependency })),
    ),
  };
}
