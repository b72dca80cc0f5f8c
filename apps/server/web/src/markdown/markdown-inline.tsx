import type { Token, Tokens } from 'marked';
import type { ComponentChildren } from 'preact';
import { decodeEntities } from './html-entities.js';
import { safeHref } from './safe-link.js';

/** Inline tokens (text, emphasis, code spans, links …) as Preact elements: text is always text. */
export function renderInline(tokens: readonly Token[] | undefined): ComponentChildren {
  return (tokens ?? []).map(renderInlineToken);
}

function renderInlineToken(token: Token, index: number): ComponentChildren {
  switch (token.type) {
    case 'text':
      // A list item's text can hold inline tokens of its own.
      return 'tokens' in token && token.tokens !== undefined
        ? renderInline(token.tokens)
        : decodeEntities(token.text);
    case 'escape':
      return token.text;
    case 'strong':
      return <strong key={index}>{renderInline(token.tokens)}</strong>;
    case 'em':
      return <em key={index}>{renderInline(token.tokens)}</em>;
    case 'del':
      return <del key={index}>{renderInline(token.tokens)}</del>;
    case 'codespan':
      // Code spans are literal: `&amp;` in one is shown as written.
      return <code key={index}>{token.text}</code>;
    case 'br':
      return <br key={index} />;
    case 'link':
      return <SafeLink key={index} token={token as Tokens.Link} />;
    case 'image':
      return <ImageAsLink key={index} token={token as Tokens.Image} />;
    case 'checkbox':
      return <input key={index} type="checkbox" checked={token.checked} disabled />;
    default:
      // Raw HTML (`html`) and anything unknown: its source, shown as text.
      return token.raw;
  }
}

/** A link to http:, https: or mailto: opened in a new tab, or its text alone for any other address. */
function SafeLink({ token }: { token: Tokens.Link }) {
  const href = safeHref(token.href);
  const children = renderInline(token.tokens);
  if (href === undefined) return <span class="md-unsafe-link">{children}</span>;
  return (
    <a
      href={href}
      target="_blank"
      rel="noopener noreferrer"
      title={token.title ? decodeEntities(token.title) : undefined}
    >
      {children}
    </a>
  );
}

// Images are never loaded (the page's policy would block remote ones anyway): a link to the image, named by its alt text.
function ImageAsLink({ token }: { token: Tokens.Image }) {
  const href = safeHref(token.href);
  const label = `🖼 ${decodeEntities(token.text) || 'image'}`;
  if (href === undefined) return <span class="md-image">{label}</span>;
  return (
    <a class="md-image" href={href} target="_blank" rel="noopener noreferrer">
      {label}
    </a>
  );
}
