import { hasMessage, t } from '../i18n/t.ts';
import { currentDeclaration } from '../session/fold/current-declaration.ts';
import type { Declaration } from '../session/fold/session-view.ts';
import { ArtifactData } from './ArtifactData.tsx';
import { C4ContextDiagram } from './C4ContextDiagram.tsx';
import { readC4Context } from './layout-c4-context.ts';

/** Every other artifact type (project image, routing, C4, and types added later), its current declaration. */
export function OtherArtifactsPanel({
  artifacts,
}: {
  artifacts: Readonly<Record<string, Declaration<unknown>[]>>;
}) {
  const types = Object.keys(artifacts).sort();
  if (types.length === 0) return <p className="muted">{t('other.empty')}</p>;
  return (
    <ul className="cards" data-testid="other-artifacts">
      {types.map((type) => {
        const current = currentDeclaration(artifacts[type] ?? []);
        if (current === null) return null;
        const key = `other.type.${type}`;
        return (
          <li key={type} className="card" data-testid="other-artifact" data-type={type}>
            <h3>
              {t('other.version', {
                type: hasMessage(key) ? t(key) : type,
                version: current.version,
              })}
            </h3>
            <ArtifactView type={type} data={current.data} />
          </li>
        );
      })}
    </ul>
  );
}

/** The C4 context as a diagram when it can be read as one; any other artifact (or a broken one) as its fields. */
function ArtifactView({ type, data }: { type: string; data: unknown }) {
  const context = type === 'c4_diagram' ? readC4Context(data) : null;
  return context === null ? <ArtifactData data={data} /> : <C4ContextDiagram context={context} />;
}
