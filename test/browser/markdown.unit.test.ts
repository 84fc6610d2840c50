import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Markdown } from '../../web/src/components/Markdown.tsx';

const render = (text: string) => renderToStaticMarkup(createElement(Markdown, { text }));

describe('agent text rendered as Markdown', () => {
  it('renders headings, emphasis, lists and GFM tables, not the raw marks', () => {
    const html = render(
      '## Plan\n\n**Bread** first:\n\n- dough\n- oven\n\n| Item | Price |\n| --- | --- |\n| Loaf | 3 |\n',
    );
    expect(html).toContain('<h2>Plan</h2>');
    expect(html).toContain('<strong>Bread</strong>');
    expect(html).toMatch(/<li>dough<\/li>/);
    expect(html).toMatch(/<table>.*<th>Item<\/th>.*<td>Loaf<\/td>/s);
    expect(html).not.toContain('##');
    expect(html).not.toContain('**');
  });

  it('gives a code block a copy button', () => {
    const html = render('```\nconst a = 1;\n```');
    expect(html).toContain('data-testid="copy-code"');
    expect(html).toMatch(/<pre[^>]*><code>const a = 1;\n<\/code><\/pre>/);
  });

  it('highlights a code block whose fence names a language it knows, its text unchanged', () => {
    const html = render('```ts\nconst a = "x"; // one\nlet b = 2;\n```');
    expect(html).toMatch(
      /<code class="language-ts"><span class="tok-keyword">const<\/span> a = <span class="tok-string">&quot;x&quot;<\/span>; <span class="tok-comment">\/\/ one<\/span>\n<span class="tok-keyword">let<\/span> b = <span class="tok-number">2<\/span>;\n<\/code>/,
    );
    // An unknown language is left as it came.
    expect(render('```brainfuck\n+[-]\n```')).toMatch(
      /<code class="language-brainfuck">\+\[-\]\n<\/code>/,
    );
  });

  it('never turns what a model wrote into markup or script', () => {
    const html = render(
      '<script>alert(1)</script>\n\n<img src=x onerror="alert(2)">\n\nHi <b>there</b> [x](javascript:alert(3))',
    );
    expect(html).not.toMatch(/<script|<img|onerror|<b>|javascript:/i);
    expect(html).toContain('Hi');
  });
});
