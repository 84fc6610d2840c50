import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ArtifactDefinition } from '../artifacts/index.ts';
import { CORE_ARTIFACT_DEFINITIONS, createArtifactRegistry } from '../artifacts/index.ts';
import { architectureArtifacts } from './artifact-definitions.ts';
import { moduleContractsSchema } from './module-contracts-schema.ts';

describe('architectureArtifacts', () => {
  it('declares the five Arquiteto artifacts as model-emitted and versioned', () => {
    expect(
      architectureArtifacts.map(({ type, systemOnly, versioned, originRequired }) => ({
        type,
        systemOnly,
        versioned,
        originRequired,
      })),
    ).toEqual(
      ['module_map', 'project_image', 'module_routing', 'c4_diagram', 'module_contracts'].map(
        (type) => ({
          type,
          systemOnly: false,
          versioned: true,
          originRequired: false,
        }),
      ),
    );
  });

  it('registers beside the core artifacts in the artifact registry', () => {
    const definitions: readonly ArtifactDefinition[] = [
      ...CORE_ARTIFACT_DEFINITIONS,
      ...architectureArtifacts,
    ];
    const registry = createArtifactRegistry(definitions);
    expect(registry.emittableTypes).toEqual(
      expect.arrayContaining(architectureArtifacts.map((artifact) => artifact.type)),
    );
  });

  it.each(architectureArtifacts.map((artifact) => [artifact.type, artifact] as const))(
    '%s requires a version ≥ 1 in its payload',
    (_type, artifact) => {
      const schema = z.toJSONSchema(artifact.schema, { io: 'input' }) as {
        required?: string[];
        properties?: Record<string, unknown>;
      };
      expect(schema.required).toContain('version');
      expect(schema.properties?.version).toMatchObject({ type: 'integer', minimum: 1 });
    },
  );

  it('writes the record’s bounds into the JSON Schema the model sees', () => {
    const schema = JSON.stringify(z.toJSONSchema(moduleContractsSchema, { io: 'input' }));
    expect(schema).toContain('"enum":["funcao","rota","evento","dado"]');
    expect(schema).toContain('"minItems":1,"maxItems":40');
    expect(schema).toContain('"minLength":1,"maxLength":300');
    expect(schema).toContain('"additionalProperties":false');
  });
});
