import { useEffect, useRef, useState } from 'react';
import { announcement, type Watched } from './announce.ts';

/**
 * A polite live region, in the page from the first render (a screen reader only hears a region it already
 * knows), that says what changed in the session since the last render — not what was there on load.
 */
export function LiveAnnouncer({ watched }: { watched: Watched }) {
  const previous = useRef<Watched | null>(null);
  const [message, setMessage] = useState('');
  const key = JSON.stringify(watched);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` is `watched` by value
  useEffect(() => {
    const before = previous.current;
    previous.current = watched;
    if (before === null) return;
    const said = announcement(before, watched);
    if (said !== null) setMessage(said);
  }, [key]);
  return (
    <p className="visually-hidden" role="status" aria-atomic="true" data-testid="live-announcer">
      {message}
    </p>
  );
}
