import { CopyButton } from '../copy-button.js';
import { useHighlighter } from './load-highlighter.js';

/**
 * A fenced code block, with a button that copies it: plain at first, coloured once the
 * highlighter has loaded if it knows the language.
 */
export function FencedCode({ code, info }: { code: string; info: string | undefined }) {
  const highlighter = useHighlighter();
  const language = highlighter?.knownLanguage(info);
  return (
    <figure class="md-code" aria-label={language === undefined ? 'Code' : `Code (${language})`}>
      <CopyButton text={code} label="Copy code" class="md-copy" />
      <pre class="code-block">
        <code class={language === undefined ? 'hljs' : `hljs language-${language}`}>
          {highlighter === undefined ? code : highlighter.highlightCode(code, language)}
        </code>
      </pre>
    </figure>
  );
}
