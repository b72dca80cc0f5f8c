import { renderToString } from 'preact-render-to-string';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadHighlighter } from './load-highlighter.js';
import { MarkdownView } from './markdown-view.js';

// Markdown a model could be talked into writing: each tries to run script or load something.
const CORPUS = [
  '<script>window.__pwned = 1</script>',
  '<img src=x onerror="window.__pwned = 1">',
  'inline <img src=x onerror=alert(1)> html',
  '<iframe src="javascript:alert(1)"></iframe>',
  '<svg onload=alert(1)>',
  '<a href="javascript:alert(1)">raw anchor</a>',
  '<div onclick="alert(1)">\nraw html block\n</div>',
  '<!-- <script>alert(1)</script> -->',
  '[x](javascript:alert(1))',
  '[x](JaVaScRiPt:alert(1))',
  '[x](  javascript:alert(1))',
  '[x](java\tscript:alert(1))',
  '[x](<java\nscript:alert(1)>)',
  '[x](\u0001javascript:alert(1))',
  '[x](&#106;avascript:alert(1))',
  '[x](&#x6A;&#x61;vascript:alert(1))',
  '[x](javascript&colon;alert(1))',
  '[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
  '[x](vbscript:msgbox(1))',
  '[x](https://ok.example "title\\" onmouseover=\\"alert(1))',
  '<javascript:alert(1)>',
  '<data:text/html,<script>alert(1)</script>>',
  '![x](javascript:alert(1))',
  '![x](https://tracker.example/pixel.gif "onload=alert(1)")',
  '[ref link][evil]\n\n[evil]: javascript:alert(1)',
  '[evil]\n\n[evil]: <javascript:alert(1)> "t"',
  '`<script>alert(1)</script>`',
  '```html\n<script>alert(1)</script>\n```',
  '```\n<img src=x onerror=alert(1)>\n```',
  '| <script>alert(1)</script> | <img src=x onerror=alert(1)> |\n|---|---|\n| [x](javascript:alert(1)) | ok |',
  '- [x] <script>alert(1)</script>\n- [ ] [y](javascript:alert(1))',
  '> <style>body{display:none}</style>',
  '&lt;script&gt;alert(1)&lt;/script&gt;',
  '\\<script>alert(1)\\</script>',
];

const html = (text: string) => renderToString(<MarkdownView text={text} />);

// Code blocks are coloured once the highlighter has loaded; in the page that is on first use.
beforeAll(() => loadHighlighter());

// The rendered HTML escapes every `<` of text, so each `<` left starts an element the renderer made.
const ELEMENT = /<(\/?)([a-z][a-z0-9]*)((?:\s+[a-z-]+(?:="[^"]*")?)*)\s*(\/?)>/g;
const ATTRIBUTE = /\s+([a-z-]+)(?:="([^"]*)")?/g;
const ELEMENTS = new Set(
  'div p span a code pre figure button h1 h2 h3 h4 h5 h6 em strong del br hr ul ol li input blockquote table thead tbody tr th td'.split(
    ' ',
  ),
);
const ATTRIBUTES = new Set([
  'class',
  'href',
  'target',
  'rel',
  'title',
  'type',
  'checked',
  'disabled',
  'start',
  'aria-label',
]);

/** Every element and attribute of `out`, checked against what Markdown may produce. */
function expectOnlySafeElements(out: string): void {
  expect(out.replace(ELEMENT, '')).not.toContain('<');
  for (const [, , name, attributes = ''] of out.matchAll(ELEMENT)) {
    expect(ELEMENTS, name).toContain(name);
    for (const [, attribute = '', value = ''] of attributes.matchAll(ATTRIBUTE)) {
      expect(ATTRIBUTES, attribute).toContain(attribute);
      if (attribute === 'href') expect(value).toMatch(/^(https?|mailto):/);
    }
  }
}

describe('hostile Markdown', () => {
  it.each(CORPUS)('renders %j without script, handlers or unsafe links', (markdown) => {
    const out = html(markdown);
    expect(out).not.toMatch(/<script/i);
    expect(out).not.toMatch(/<[^>]*\son[a-z]+=/i);
    expect(out).not.toMatch(/href="\s*(javascript|vbscript|data):/i);
    expectOnlySafeElements(out);
  });

  it('shows raw HTML as the text it is', () => {
    expect(html('<script>window.__pwned = 1</script>')).toContain(
      '&lt;script>window.__pwned = 1&lt;/script>',
    );
    expect(html('inline <img src=x onerror=alert(1)> html')).toContain(
      '<p>inline &lt;img src=x onerror=alert(1)> html</p>',
    );
    expect(html('<div onclick="alert(1)">\nraw html block\n</div>')).toContain(
      '<p class="md-source">&lt;div onclick=&quot;alert(1)&quot;>\nraw html block\n&lt;/div></p>',
    );
  });

  it('shows a link to a forbidden scheme as its text, and keeps a safe one safe', () => {
    expect(html('[click me](javascript:alert(1))')).toBe(
      '<div class="markdown"><p><span class="md-unsafe-link">click me</span></p></div>',
    );
    expect(html('[ok](https://ok.example/a "the title")')).toBe(
      '<div class="markdown"><p><a href="https://ok.example/a" target="_blank" rel="noopener noreferrer" title="the title">ok</a></p></div>',
    );
  });
});
