import type { ContractItem } from './module-contracts-schema.ts';
import type { ModuleRelation } from './module-scope.ts';

/** A module of the current map as listed: its contract in full, or its name only. */
export type ListedModule =
  | {
      readonly name: string;
      readonly relation: ModuleRelation;
      readonly detail: 'full';
      readonly responsibility: string;
      readonly stack: string;
      readonly dependsOn: readonly string[];
      /** null: no contract declared for this module (or none at all in the project). */
      readonly expoe: readonly ContractItem[] | null;
      readonly declaredItems: number | null;
      /** Items of this module left out by the ceiling. */
      readonly omittedItems: number;
    }
  | { readonly name: string; readonly relation: ModuleRelation; readonly detail: 'name_only' };

/** The listing as data; `text` is rendered from exactly this. */
export type ModuleContractsListingData = {
  readonly module: string | null;
  /** null when no module is set or there is no map to look in. */
  readonly moduleInMap: boolean | null;
  readonly moduleMapVersion: number | null;
  readonly contractsVersion: number | null;
  /** The map's modules: own, consumed, consumers, others (each group by name); by name when unscoped. */
  readonly modules: readonly ListedModule[];
  /** Contracts of modules absent from the current map: declared as such, never attributed to a module. */
  readonly contractsOutsideMap: readonly {
    readonly modulo: string;
    readonly declaredItems: number;
  }[];
  readonly maxItems: number;
  readonly shownItems: number;
  readonly omittedItems: number;
  readonly argumentsIgnored: readonly string[];
};
