import { useCallback, useEffect, useState } from 'react';
import { ApiError } from '../api/api-error.ts';
import { getJson, postJson, SIGNED_OUT_EVENT } from '../api/client.ts';
import type { Me, Person } from '../api/types.ts';

export type MeState =
  | { status: 'loading' }
  | { status: 'signed-out' }
  | { status: 'ready'; me: Me }
  | { status: 'failed'; error: unknown };

/** Who is signed in: a 401 from /api/auth/me means the sign-in page. */
export function useMe(): {
  state: MeState;
  signedIn: (person: Person) => void;
  signOut: () => Promise<void>;
  reload: () => void;
} {
  const [state, setState] = useState<MeState>({ status: 'loading' });
  const [generation, setGeneration] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `generation` says when to ask again.
  useEffect(() => {
    let current = true;
    getJson('/api/auth/me').then(
      (me) => current && setState({ status: 'ready', me }),
      (error: unknown) =>
        current &&
        setState(
          error instanceof ApiError && error.status === 401
            ? { status: 'signed-out' }
            : { status: 'failed', error },
        ),
    );
    return () => {
      current = false;
    };
  }, [generation]);
  useEffect(() => {
    const signedOut = () => setState({ status: 'signed-out' });
    window.addEventListener(SIGNED_OUT_EVENT, signedOut);
    return () => window.removeEventListener(SIGNED_OUT_EVENT, signedOut);
  }, []);
  const reload = useCallback(() => setGeneration((value) => value + 1), []);
  const signedIn = useCallback(
    (person: Person) => setState({ status: 'ready', me: { accounts: true, person } }),
    [],
  );
  const signOut = useCallback(async () => {
    await postJson('/api/auth/sign-out');
    setState({ status: 'signed-out' });
  }, []);
  return { state, signedIn, signOut, reload };
}
