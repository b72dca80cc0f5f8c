import { useState } from 'preact/hooks';
import { highlightCode, knownLanguage } from './highlight-code.js';

// How long the button says "Copied".
const COPIED_MS = 1500;

/** A fenced code block: coloured when its language is known, with a button that copies it. */
export function FencedCode({ code, info }: { code: string; info: string | undefined }) {
  const language = knownLanguage(info);
  return (
    <figure class="md-code" aria-label={language === undefined ? 'Code' : `Code (${language})`}>
      <CopyButton text={code} />
      <pre class="code-block">
        <code class={language === undefined ? 'hljs' : `hljs language-${language}`}>
          {highlightCode(code, language)}
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
