import { renderToString } from 'preact-render-to-string';
import { beforeAll, describe, expect, it } from 'vitest';
import { highlightCode } from './highlight-code.js';
import { loadHighlighter } from './load-highlighter.js';
import { MarkdownView } from './markdown-view.js';

const html = (text: string) => renderToString(<MarkdownView text={text} />);

// Code blocks are coloured once the highlighter has loaded; in the page that is on first use.
beforeAll(() => loadHighlighter());

describe('MarkdownView', () => {
  it('renders CommonMark blocks: headings, paragraphs, emphasis, lists, quotes, rules', () => {
    const out = html(
      '# Title\n\n## Part *two*\n\nSome **bold**, _em_ and `a < b`.\n\n- one\n- two\n\n3. three\n4. four\n\n> quoted\n\n---\n',
    );
    expect(out).toContain('<h1>Title</h1>');
    expect(out).toContain('<h2>Part <em>two</em></h2>');
    expect(out).toContain('<p>Some <strong>bold</strong>, <em>em</em> and <code>a &lt; b</code>.</p>');
    expect(out).toContain('<ul><li>one</li><li>two</li></ul>');
    expect(out).toContain('<ol start="3"><li>three</li><li>four</li></ol>');
    expect(out).toContain('<blockquote><p>quoted</p></blockquote>');
    expect(out).toContain('<hr/>');
  });

  it('renders GitHub tables with alignment classes, strikethrough, task lists and autolinks', () => {
    const out = html(
      '| Name | Count |\n|:-----|------:|\n| a | 1 |\n\n~~gone~~\n\n- [x] done\n- [ ] todo\n\nSee https://example.com and <mailto:me@example.com>.',
    );
    expect(out).toContain('<th class="md-align-left">Name</th><th class="md-align-right">Count</th>');
    expect(out).toContain('<td class="md-align-left">a</td><td class="md-align-right">1</td>');
    expect(out).toContain('<del>gone</del>');
    expect(out).toMatch(/<li class="md-task"><input type="checkbox" checked disabled\/>\s*done<\/li>/);
    expect(out).toMatch(/<li class="md-task"><input type="checkbox" disabled\/>\s*todo<\/li>/);
    expect(out).toContain(
      '<a href="https://example.com/" target="_blank" rel="noopener noreferrer">https://example.com</a>',
    );
    expect(out).toContain('href="mailto:me@example.com"');
  });

  it('decodes entities in text but not in code', () => {
    const out = html('Tom &amp; Jerry &copy; &#65; `&amp;`');
    expect(out).toContain('<p>Tom &amp; Jerry © A <code>&amp;amp;</code></p>');
  });

  it('highlights a fenced block of a known language, with a copy button', () => {
    const out = html('```ts\nconst answer: number = 42; // why\n```');
    expect(out).toContain('<figure class="md-code" aria-label="Code (ts)">');
    expect(out).toContain('aria-label="Copy code"');
    expect(out).toContain('<code class="hljs language-ts"><span class="hljs-keyword">const</span>');
    expect(out).toContain('<span class="hljs-comment">// why</span>');
  });

  it('shows a block of an unknown or no language as plain, escaped text', () => {
    for (const fence of ['```klingon', '```']) {
      const out = html(`${fence}\n<b>bold</b> & "quoted"\n\`\`\``);
      expect(out).toContain('<code class="hljs">&lt;b>bold&lt;/b> &amp; &quot;quoted&quot;</code>');
    }
  });

  it('shows Markdown images as a link named by their alt text, never as an image', () => {
    const out = html('![a chart](https://example.com/chart.png) ![bad](javascript:alert(1))');
    expect(out).not.toContain('<img');
    expect(out).toContain(
      '<a class="md-image" href="https://example.com/chart.png" target="_blank" rel="noopener noreferrer">🖼 a chart</a>',
    );
    expect(out).toContain('<span class="md-image">🖼 bad</span>');
  });
});

describe('highlightCode', () => {
  it('turns highlight.js output into elements, its escapes into text', () => {
    const code = 'if (a < b && c > "d") {}';
    const out = renderToString(<code>{highlightCode(code, 'javascript')}</code>);
    expect(out).toContain('<span class="hljs-keyword">if</span>');
    expect(out).toContain('<span class="hljs-string">&quot;d&quot;</span>');
    expect(out.replace(/<[^>]+>/g, '')).toBe('if (a &lt; b &amp;&amp; c > &quot;d&quot;) {}');
  });

  it('knows the registered languages by their aliases', () => {
    for (const alias of [
      'js',
      'ts',
      'sh',
      'bash',
      'shell',
      'py',
      'json',
      'diff',
      'css',
      'html',
      'xml',
      'go',
      'rs',
      'sql',
      'yml',
      'md',
      'java',
      'c',
      'cpp',
    ]) {
      expect(highlightCode('x', alias), alias).not.toBe('x');
    }
  });
});
