import type { KeyboardEvent } from 'react';
import { t } from '../i18n/t.ts';
import type { GraphLayout, GraphNode } from './layout-module-graph.ts';
import type { ModuleStatus } from './module-status.ts';

const NAME_CHARACTERS = 20;
const STACK_CHARACTERS = 26;

type ModuleGraphProps = {
  layout: GraphLayout;
  /** Each module's status on the line, drawn on its box. */
  statuses: Readonly<Record<string, ModuleStatus>>;
  selected: string | null;
  onSelect: (name: string | null) => void;
};

/** The module map as a picture: boxes in dependency layers, arrows from a module to what it uses. */
export function ModuleGraph({ layout, statuses, selected, onSelect }: ModuleGraphProps) {
  const related = (edge: { from: string; to: string }) =>
    selected !== null && (edge.from === selected || edge.to === selected);
  const onKey = (event: KeyboardEvent, node: GraphNode) => {
    if (event.key !== 'Enter' && event.key !== ' ') return;
    event.preventDefault();
    onSelect(selected === node.name ? null : node.name);
  };
  return (
    <div className="graph-scroll">
      <svg
        className="module-graph"
        data-testid="module-map-graph"
        width={layout.width}
        height={layout.height}
        viewBox={`0 0 ${layout.width} ${layout.height}`}
        role="group"
        aria-label={t('map.graphLabel', { count: layout.nodes.length })}
      >
        <defs>
          <marker
            id="arrow"
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
          <marker
            id="arrow-selected"
            viewBox="0 0 10 10"
            refX="9"
            refY="5"
            markerUnits="userSpaceOnUse"
            markerWidth="11"
            markerHeight="11"
            orient="auto-start-reverse"
          >
            <path d="M 0 0 L 10 5 L 0 10 z" className="arrow-head selected" />
          </marker>
        </defs>
        {layout.edges.map((edge) => (
          <path
            key={`${edge.from}->${edge.to}`}
            d={edge.path}
            className={related(edge) ? 'edge selected' : 'edge'}
            markerEnd={related(edge) ? 'url(#arrow-selected)' : 'url(#arrow)'}
            data-testid="module-edge"
            data-from={edge.from}
            data-to={edge.to}
          />
        ))}
        {layout.nodes.map((node) => {
          const status = statuses[node.name] ?? 'notStarted';
          const statusText = t(`map.status.${status}`);
          const pillWidth = statusText.length * 6.6 + 14;
          return (
            <g
              key={node.name}
              transform={`translate(${node.x} ${node.y})`}
              className={`${node.name === selected ? 'node selected' : 'node'} status-${status}`}
              data-status={status}
              role="button"
              tabIndex={0}
              aria-pressed={node.name === selected}
              data-testid="module-node"
              data-module={node.name}
              onClick={() => onSelect(selected === node.name ? null : node.name)}
              onKeyDown={(event) => onKey(event, node)}
            >
              <title>{`${t('map.statusLabel', { module: node.name, status: statusText })} — ${node.stack}\n${node.responsibility}`}</title>
              <rect width={layout.nodeWidth} height={layout.nodeHeight} rx="8" />
              <text x={layout.nodeWidth / 2} y={23} className="node-name" textAnchor="middle">
                {shorten(node.name, NAME_CHARACTERS)}
              </text>
              <text x={layout.nodeWidth / 2} y={42} className="node-stack" textAnchor="middle">
                {shorten(node.stack, STACK_CHARACTERS)}
              </text>
              <g
                className="node-status"
                transform={`translate(${layout.nodeWidth - pillWidth - 8} -9)`}
              >
                <rect width={pillWidth} height={18} rx="9" />
                <text x={pillWidth / 2} y={13} textAnchor="middle" data-testid="module-status">
                  {statusText}
                </text>
              </g>
            </g>
          );
        })}
      </svg>
    </div>
  );
}

function shorten(text: string, characters: number): string {
  return text.length > characters ? `${text.slice(0, characters - 1)}…` : text;
}
