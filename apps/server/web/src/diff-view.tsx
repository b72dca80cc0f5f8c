import type { DiffDetails } from '@cairn/core';
import { CodeBlock } from './code-block.js';
import { diffLines } from './diff-lines.js';

/** A file change: its unified diff, `+` lines green and `-` lines red; the new text when there is no patch. */
export function DiffView({ diff }: { diff: DiffDetails }) {
  const lines = diff.patch === undefined ? [] : diffLines(diff.patch);
  if (lines.length === 0) {
    return <CodeBlock label={`New content of ${diff.filePath}`}>{diff.newContent}</CodeBlock>;
  }
  return (
    <CodeBlock label={`Diff of ${diff.filePath}`} variant="diff">
      {lines.map((line, index) => (
        // Lines have no identity of their own, and the list never reorders: the index is the key.
        <span key={index} class={`diff-line diff-${line.kind}`}>
          {line.text}
          {'\n'}
        </span>
      ))}
    </CodeBlock>
  );
}
