import type { ComponentChildren } from 'preact';

export interface CodeBlockProps {
  /** Names the block for assistive technology (and tests): "Diff of src/a.ts". */
  label: string;
  /** Extra classes for the `<pre>`, e.g. `diff`. */
  variant?: string;
  children: ComponentChildren;
}

/** Monospace text kept as written. A `<figure>` carries the label: a `<pre>` cannot. */
export function CodeBlock({ label, variant, children }: CodeBlockProps) {
  return (
    <figure class="code-figure" aria-label={label}>
      <pre class={variant === undefined ? 'code-block' : `code-block ${variant}`}>{children}</pre>
    </figure>
  );
}
