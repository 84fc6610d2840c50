const MAX_DEPTH = 4;
const MAX_ITEMS = 50;

/** Any artifact's data as nested definition lists: readable without knowing its schema. */
export function ArtifactData({ data, depth = 0 }: { data: unknown; depth?: number }) {
  if (data === null || data === undefined) return <span className="muted">—</span>;
  if (typeof data !== 'object') return <span className="value">{String(data)}</span>;
  if (depth >= MAX_DEPTH)
    return <code className="small">{JSON.stringify(data).slice(0, 200)}</code>;
  if (Array.isArray(data)) {
    return (
      <ol className="artifact-list">
        {data.slice(0, MAX_ITEMS).map((item, index) => (
          <li key={index}>
            <ArtifactData data={item} depth={depth + 1} />
          </li>
        ))}
        {data.length > MAX_ITEMS && <li className="muted">… {data.length - MAX_ITEMS}</li>}
      </ol>
    );
  }
  const entries = Object.entries(data as Record<string, unknown>).filter(
    ([name]) => name !== 'version',
  );
  return (
    <dl className="artifact-fields">
      {entries.slice(0, MAX_ITEMS).map(([name, value]) => (
        <div key={name} className="field">
          <dt>{name}</dt>
          <dd>
            <ArtifactData data={value} depth={depth + 1} />
          </dd>
        </div>
      ))}
    </dl>
  );
}
