import type { Token } from './highlight.ts';

/** A highlighted line: each token not plain in a span the theme colours (`tok-keyword`, `tok-string`…). */
export function Highlighted({ tokens }: { tokens: readonly Token[] }) {
  return (
    <>
      {tokens.map((token, at) =>
        token.kind === 'plain' ? (
          token.text
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: a line's tokens never move
          <span key={at} className={`tok-${token.kind}`}>
            {token.text}
          </span>
        ),
      )}
    </>
  );
}
