import type { Token, Tokens } from 'marked';
import { Component, type ComponentChildren } from 'preact';
import { FencedCode } from './fenced-code.js';
import { renderInline } from './markdown-inline.js';

/** Block tokens (paragraphs, headings, lists, tables, code …) as Preact elements. */
export function renderBlocks(tokens: readonly Token[]): ComponentChildren {
  return tokens.map((token, index) => renderBlock(token, index));
}

function renderBlock(token: Token, key: number): ComponentChildren {
  switch (token.type) {
    case 'space':
    case 'def':
      // Blank lines, and reference definitions (used by the links that name them).
      return null;
    case 'paragraph':
      return <p key={key}>{renderInline(token.tokens)}</p>;
    case 'text':
      // A tight list item's text.
      return token.tokens === undefined ? token.raw : renderInline(token.tokens);
    case 'heading':
      return <Heading key={key} token={token as Tokens.Heading} />;
    case 'code':
      return <FencedCode key={key} code={token.text} info={token.lang} />;
    case 'blockquote':
      return <blockquote key={key}>{renderBlocks(token.tokens ?? [])}</blockquote>;
    case 'list':
      return <List key={key} token={token as Tokens.List} />;
    case 'table':
      return <Table key={key} token={token as Tokens.Table} />;
    case 'hr':
      return <hr key={key} />;
    case 'checkbox':
      return <input key={key} type="checkbox" checked={token.checked} disabled />;
    default:
      // Raw HTML (`html`) and anything unknown: its source, shown as text.
      return (
        <p key={key} class="md-source">
          {token.raw}
        </p>
      );
  }
}

function Heading({ token }: { token: Tokens.Heading }) {
  const Tag = `h${Math.min(Math.max(token.depth, 1), 6)}` as 'h1';
  return <Tag>{renderInline(token.tokens)}</Tag>;
}

function List({ token }: { token: Tokens.List }) {
  const items = token.items.map((item, index) => (
    <li key={index} class={item.task ? 'md-task' : undefined}>
      {renderBlocks(item.tokens)}
    </li>
  ));
  if (!token.ordered) return <ul>{items}</ul>;
  return <ol start={token.start === '' || token.start === 1 ? undefined : Number(token.start)}>{items}</ol>;
}

// Alignment by class: the page's policy allows no inline styles.
const alignClass = (align: Tokens.TableCell['align']) => (align === null ? undefined : `md-align-${align}`);

function Table({ token }: { token: Tokens.Table }) {
  return (
    <div class="md-table">
      <table>
        <thead>
          <tr>
            {token.header.map((cell, index) => (
              <th key={index} class={alignClass(cell.align)}>
                {renderInline(cell.tokens)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {token.rows.map((row, rowIndex) => (
            <tr key={rowIndex}>
              {row.map((cell, index) => (
                <td key={index} class={alignClass(cell.align)}>
                  {renderInline(cell.tokens)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * One top-level block, drawn again only when its token is a new object: while a reply streams,
 * the incremental lexer hands back the same objects for the finished blocks, so Preact leaves
 * their DOM alone.
 */
export class MarkdownBlock extends Component<{ token: Token }> {
  override shouldComponentUpdate(next: { token: Token }): boolean {
    return next.token !== this.props.token;
  }

  override render() {
    return renderBlock(this.props.token, 0);
  }
}
