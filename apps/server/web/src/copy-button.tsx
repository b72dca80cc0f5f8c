import { useState } from 'preact/hooks';

// How long the button says "Copied".
const COPIED_MS = 1500;

/**
 * Puts `text` on the clipboard. The Clipboard API exists only in a secure context (https, localhost):
 * a page served over plain http on a LAN falls back to the older copy command on a hidden text area.
 */
export async function copyText(text: string): Promise<void> {
  if (navigator.clipboard !== undefined && window.isSecureContext) {
    await navigator.clipboard.writeText(text);
    return;
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.className = 'copy-source';
  document.body.append(area);
  area.select();
  try {
    if (!document.execCommand('copy')) throw new Error('the browser refused to copy');
  } finally {
    area.remove();
  }
}

/** A button that copies `text` and says so for a moment. */
export function CopyButton({
  text,
  label,
  class: className,
}: {
  text: string;
  label: string;
  class: string;
}) {
  const [copied, setCopied] = useState(false);
  const copy = () => {
    copyText(text).then(
      () => {
        setCopied(true);
        setTimeout(() => setCopied(false), COPIED_MS);
      },
      () => undefined,
    );
  };
  return (
    <button type="button" class={className} aria-label={label} onClick={copy}>
      {copied ? 'Copied' : 'Copy'}
    </button>
  );
}
