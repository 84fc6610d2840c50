import {
  type ComponentProps,
  Fragment,
  isValidElement,
  memo,
  type ReactNode,
  useMemo,
  useRef,
  useState,
} from 'react';
import ReactMarkdown from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { currentLanguage } from '../i18n/language.ts';
import { t } from '../i18n/t.ts';
import { Highlighted } from './Highlighted.tsx';
import { grammarFor, highlightLines } from './highlight.ts';

/**
 * Text an agent wrote, as Markdown people read: headings, lists, GFM tables, code blocks with a copy button.
 * Raw HTML is dropped (`skipHtml`), and react-markdown's URL filter keeps `javascript:` links out: what a model
 * writes never becomes markup or script in the page.
 */
export function Markdown({ text }: { text: string }) {
  return <ParsedMarkdown text={text} language={currentLanguage()} />;
}

/** Parsing is the costly part: done again only when the text (or the language of the buttons) changes. */
const ParsedMarkdown = memo(function ParsedMarkdown({ text }: { text: string; language: string }) {
  return (
    <div className="markdown">
      <ReactMarkdown
        remarkPlugins={[remarkGfm]}
        skipHtml
        components={{ pre: CodeBlock, a: ExternalLink, table: ScrollingTable }}
      >
        {text}
      </ReactMarkdown>
    </div>
  );
});

function CodeBlock({
  node: _node,
  children,
  ...props
}: ComponentProps<'pre'> & { node?: unknown }) {
  const pre = useRef<HTMLPreElement>(null);
  const [copied, setCopied] = useState(false);
  const copy = () => {
    const text = pre.current?.textContent ?? '';
    void navigator.clipboard?.writeText(text).then(() => {
      setCopied(true);
      setTimeout(() => setCopied(false), 1500);
    });
  };
  return (
    <div className="code-block">
      <button type="button" className="copy-code" onClick={copy} data-testid="copy-code">
        {copied ? t('markdown.copied') : t('markdown.copy')}
      </button>
      <pre ref={pre} tabIndex={0} {...props}>
        <HighlightedCode code={children} />
      </pre>
    </div>
  );
}

/**
 * The `<code>` react-markdown puts in a fenced block, its text highlighted when the fence names a language
 * the highlighter knows (`language-ts`…); anything else as it came.
 */
function HighlightedCode({ code }: { code: ReactNode }) {
  const element = isValidElement<{ className?: string; children?: ReactNode }>(code) ? code : null;
  const className = element?.props.className ?? '';
  const text = element?.props.children;
  const grammar = grammarFor(/language-(\S+)/.exec(className)?.[1] ?? '');
  const lines = useMemo(
    () =>
      grammar === null || typeof text !== 'string'
        ? null
        : highlightLines(text.split('\n'), grammar),
    [grammar, text],
  );
  if (element === null || lines === null) return code;
  return (
    <code className={className}>
      {lines.map((tokens, at) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a block's lines never move
        <Fragment key={at}>
          {at > 0 && '\n'}
          <Highlighted tokens={tokens} />
        </Fragment>
      ))}
    </code>
  );
}

function ExternalLink({
  node: _node,
  children,
  ...props
}: ComponentProps<'a'> & { node?: unknown }) {
  return (
    <a {...props} target="_blank" rel="noopener noreferrer nofollow">
      {children}
    </a>
  );
}

/** A wide table scrolls inside its own box, so the page never gets wider than the screen. */
function ScrollingTable({
  node: _node,
  children,
  ...props
}: ComponentProps<'table'> & { node?: unknown }) {
  return (
    <div className="table-scroll" tabIndex={0}>
      <table {...props}>{children}</table>
    </div>
  );
}
