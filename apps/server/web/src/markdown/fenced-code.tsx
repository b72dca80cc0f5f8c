import { useState } from 'preact/hooks';
import { useHighlighter } from './load-highlighter.js';

// How long the button says "Copied".
const COPIED_MS = 1500;

/**
 * A fenced code block, with a button that copies it: plain at first, coloured once the
 * highlighter has loaded if it knows the language.
 */
export function FencedCode({ code, info }: { code: string; info: string | undefined }) {
  const highlighter = useHighlighter();
  const language = highlighter?.knownLanguage(info);
  return (
    <figure class="md-code" aria-label={language === undefined ? 'Code' : `Code (${language})`}>
      <CopyButton text={code} />
      <pre class="code-block">
        <code class={language === undefined ? 'hljs' : `hljs language-${language}`}>
          {highlighter === undefined ? code : highlighter.highlightCode(code, language)}
        </code>
      </pre>
    </figure>
  );
}

function CopyButton({ text }: { text: string }) {
  const [copied, setCopied] = useState(false);
  const copy = () => {
    // No clipboard outside a secure context: the button then does nothing.
    navigator.clipboard?.writeText(text).then(
      () => {
        setCopied(true);
        setTimeout(() => setCopied(false), COPIED_MS);
      },
      () => undefined,
    );
  };
  return (
    <button type="button" class="md-copy" aria-label="Copy code" onClick={copy}>
      {copied ? 'Copied' : 'Copy'}
    </button>
  );
}
