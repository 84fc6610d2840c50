import { useId, useMemo } from 'react';
import { t } from '../i18n/t.ts';
import {
  type C4Actor,
  type C4Context,
  type C4Edge,
  type C4Node,
  C4_SYSTEM,
  C4_SIZES,
  layoutC4Context,
} from './layout-c4-context.ts';

const NAME_CHARACTERS = 22;
/** Below this width the picture scrolls sideways in its region instead of shrinking further. */
const MIN_SHOWN_WIDTH = 560;

/**
 * The C4 context as a picture (system in the middle, people above, external systems below, labelled
 * arrows) and the same in words. The picture is one image to assistive technology (`role="img"` with a
 * summary); the list after it says everything it shows. The picture shrinks to the page's width down to
 * MIN_SHOWN_WIDTH, then scrolls inside a labelled region the keyboard reaches.
 */
export function C4ContextDiagram({ context }: { context: C4Context }) {
  const layout = useMemo(() => layoutC4Context(context), [context]);
  const id = useId();
  const names = new Map<string, string>([
    [C4_SYSTEM, context.system.name],
    ...context.actors.map((actor) => [actor.id, actor.name] as const),
  ]);
  const nameOf = (endpoint: string) => names.get(endpoint) ?? endpoint;
  const people = context.actors.filter((actor) => actor.kind === 'person');
  const externals = context.actors.filter((actor) => actor.kind !== 'person');
  const summary = t('c4.summary', {
    system: context.system.name,
    people: people.length,
    externals: externals.length,
    relations: context.relations.length,
  });
  return (
    <div className="c4" data-testid="c4-diagram">
      <p className="small">
        <strong>{context.system.name}</strong> — {context.system.description}
      </p>
      <section className="graph-scroll c4-scroll" aria-label={t('c4.regionLabel')} tabIndex={0}>
        <svg
          className="c4-graph"
          data-testid="c4-graph"
          viewBox={`0 0 ${layout.width} ${layout.height}`}
          style={{
            width: '100%',
            maxWidth: `${layout.width}px`,
            minWidth: `${Math.min(layout.width, MIN_SHOWN_WIDTH)}px`,
          }}
          role="img"
          aria-label={summary}
        >
          <defs>
            <marker
              id={`${id}-arrow`}
              viewBox="0 0 10 10"
              refX="9"
              refY="5"
              markerUnits="userSpaceOnUse"
              markerWidth="11"
              markerHeight="11"
              orient="auto-start-reverse"
            >
              <path d="M 0 0 L 10 5 L 0 10 z" className="arrow-head" />
            </marker>
          </defs>
          {layout.edges.map((edge) => (
            <path
              key={`${edge.from}->${edge.to}`}
              d={edge.path}
              className="edge"
              data-testid="c4-edge"
              data-from={edge.from}
              data-to={edge.to}
              markerEnd={edge.forward ? `url(#${id}-arrow)` : undefined}
              markerStart={edge.backward ? `url(#${id}-arrow)` : undefined}
            />
          ))}
          {layout.nodes.map((node) => (
            <NodeBox key={node.id} node={node} />
          ))}
          {layout.edges.map((edge) => (
            <EdgeLabel key={`label:${edge.from}->${edge.to}`} edge={edge} />
          ))}
        </svg>
      </section>
      <details className="c4-text" data-testid="c4-text">
        <summary>{t('c4.inWords')}</summary>
        <h4>{t('c4.people')}</h4>
        <ActorList actors={people} />
        <h4>{t('c4.externals')}</h4>
        <ActorList actors={externals} />
        <h4>{t('c4.relations')}</h4>
        {context.relations.length === 0 ? (
          <p className="muted small">{t('c4.none')}</p>
        ) : (
          <ul className="small" data-testid="c4-relations">
            {context.relations.map((relation, at) => (
              <li key={at}>
                {t('c4.relation', {
                  from: nameOf(relation.from),
                  to: nameOf(relation.to),
                  description: relation.description,
                })}
              </li>
            ))}
          </ul>
        )}
      </details>
    </div>
  );
}

/** One box of the picture: its name (shortened) and its kind. */
function NodeBox({ node }: { node: C4Node }) {
  return (
    <g
      transform={`translate(${node.x} ${node.y})`}
      className={`c4-node kind-${node.kind}`}
      data-testid="c4-node"
      data-id={node.id}
      data-kind={node.kind}
    >
      <rect width={node.width} height={node.height} rx={node.kind === 'person' ? 30 : 8} />
      <text x={node.width / 2} y={node.height / 2 - 4} className="node-name" textAnchor="middle">
        {shorten(node.name, NAME_CHARACTERS)}
      </text>
      <text x={node.width / 2} y={node.height / 2 + 14} className="node-kind" textAnchor="middle">
        [{t(`c4.kind.${node.kind}`)}]
      </text>
    </g>
  );
}

/** An arrow's label, wrapped in lines on a box of its own. */
function EdgeLabel({ edge }: { edge: C4Edge }) {
  return (
    <g className="c4-label" transform={`translate(${edge.label.x} ${edge.label.y})`}>
      <rect width={edge.label.width} height={edge.label.height} rx="4" />
      {edge.label.lines.map((line, at) => (
        <text
          key={at}
          x={edge.label.width / 2}
          y={C4_SIZES.labelPadding + (at + 1) * C4_SIZES.lineHeight - 4}
          textAnchor="middle"
        >
          {line}
        </text>
      ))}
    </g>
  );
}

/** People or external systems in words, or "none". */
function ActorList({ actors }: { actors: readonly C4Actor[] }) {
  if (actors.length === 0) return <p className="muted small">{t('c4.none')}</p>;
  return (
    <ul className="small">
      {actors.map((actor) => (
        <li key={actor.id}>
          <strong>{actor.name}</strong>
          {actor.description && ` — ${actor.description}`}
        </li>
      ))}
    </ul>
  );
}

function shorten(text: string, characters: number): string {
  return text.length > characters ? `${text.slice(0, characters - 1)}…` : text;
}
