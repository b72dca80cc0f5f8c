import { useRef } from 'preact/hooks';
import { IncrementalBlocks } from './incremental-blocks.js';
import { MarkdownBlock } from './markdown-block.js';

/**
 * Markdown as Preact elements, never as HTML. Fed a growing text (a streamed reply), it lexes only
 * the end again and redraws only the blocks that changed.
 */
export function MarkdownView({ text }: { text: string }) {
  const lexer = useRef<IncrementalBlocks | null>(null);
  lexer.current ??= new IncrementalBlocks();
  const blocks = lexer.current.push(text);
  return (
    <div class="markdown">
      {blocks.map((token, index) => (
        <MarkdownBlock key={index} token={token} />
      ))}
    </div>
  );
}
