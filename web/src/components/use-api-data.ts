import { useCallback, useEffect, useRef, useState } from 'react';

export type ApiData<T> = {
  data: T | null;
  error: unknown;
  loading: boolean;
  /** Fetch again now. */
  reload: () => void;
  /** Replace the data with what an action of this page answered (until the next fetch). */
  set: (data: T) => void;
};

export type ApiDataOptions = {
  /**
   * Wait this long after the key changes before fetching, so a burst of changes (the session log moving,
   * event after event) fetches once, after the last.
   */
  delayMs?: number;
  /** Fetch again this often while the component is shown. */
  everyMs?: number;
};

/**
 * The web UI's one way to read the API (decision 0232): loads data for a page or a panel, again when `key`
 * changes (with `delayMs`, once a burst of changes is over), every `everyMs`, or on `reload`. A failure keeps
 * the data last read beside the error; an answer that comes back after the key changed, or after the component
 * is gone, is dropped.
 */
export function useApiData<T>(
  load: () => Promise<T>,
  key: string,
  { delayMs = 0, everyMs }: ApiDataOptions = {},
): ApiData<T> {
  const [state, setState] = useState<{ data: T | null; error: unknown; loading: boolean }>({
    data: null,
    error: null,
    loading: true,
  });
  const [generation, setGeneration] = useState(0);
  // The latest `load` (it is a new closure each render); `key` and `generation` say when to fetch.
  const latestLoad = useRef(load);
  latestLoad.current = load;
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` and `generation` say when to fetch again.
  useEffect(() => {
    let current = true;
    const fetchNow = () => {
      setState((previous) => ({ ...previous, loading: true }));
      latestLoad.current().then(
        (data) => current && setState({ data, error: null, loading: false }),
        (error: unknown) =>
          current && setState((previous) => ({ data: previous.data, error, loading: false })),
      );
    };
    const delayed = delayMs > 0 ? setTimeout(fetchNow, delayMs) : undefined;
    if (delayed === undefined) fetchNow();
    const repeated = everyMs !== undefined ? setInterval(fetchNow, everyMs) : undefined;
    return () => {
      current = false;
      clearTimeout(delayed);
      clearInterval(repeated);
    };
  }, [key, generation, delayMs, everyMs]);
  const reload = useCallback(() => setGeneration((value) => value + 1), []);
  const set = useCallback((data: T) => setState({ data, error: null, loading: false }), []);
  return { ...state, reload, set };
}
