import { useCallback, useEffect, useState } from 'react';

export type ApiData<T> = { data: T | null; error: unknown; loading: boolean; reload: () => void };

/** Loads data for a page; `reload` fetches again. A stale answer (the key changed meanwhile) is dropped. */
export function useApiData<T>(load: () => Promise<T>, key: string): ApiData<T> {
  const [state, setState] = useState<{ data: T | null; error: unknown; loading: boolean }>({
    data: null,
    error: null,
    loading: true,
  });
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    let current = true;
    setState((previous) => ({ ...previous, loading: true }));
    load().then(
      (data) => current && setState({ data, error: null, loading: false }),
      (error: unknown) =>
        current && setState((previous) => ({ data: previous.data, error, loading: false })),
    );
    return () => {
      current = false;
    };
    // `load` is recreated each render; `key` and `generation` say when to fetch again.
  }, [key, generation]);
  const reload = useCallback(() => setGeneration((value) => value + 1), []);
  return { ...state, reload };
}
