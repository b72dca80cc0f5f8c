import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { readUnsent, writeUnsent } from './unsent-text.js';

export interface ComposerProps {
  /** Whose send box: what is typed in it is kept for the conversation across a reload. */
  conversationId: string;
  turnRunning: boolean;
  /** A message waits for the running turn: another cannot be queued behind it. */
  queued: boolean;
  /** A message given back to edit (the queued one): put in the box, before what is typed there. */
  restored: { text: string; files: readonly File[] } | undefined;
  disabled: boolean;
  /** Shown first among the actions: the model picker. */
  modelPicker?: ComponentChildren;
  onSend(text: string, files: File[]): void;
  onAbort(): void;
}

// What the picker offers; the server checks every file again (size, type, bytes).
const ACCEPT =
  'image/png,image/jpeg,image/gif,image/webp,application/pdf,text/plain,text/markdown,text/csv,application/json,.md,.csv';

// A pasted screenshot has a generic name (`image.png`): give it one that says when it was taken.
function named(file: File, index: number): File {
  if (file.name !== '' && file.name !== 'image.png') return file;
  const extension = file.type.split('/')[1] ?? 'png';
  const stamp = new Date().toISOString().slice(0, 19).replaceAll(':', '-');
  return new File([file], `pasted-${stamp}${index === 0 ? '' : `-${index + 1}`}.${extension}`, {
    type: file.type,
  });
}

/**
 * The send box: Enter sends, Shift+Enter adds a line; Abort stops the running turn. While a turn runs,
 * a message is queued to go when it ends. Files come from the picker, pasted images and files dropped
 * on it; they go with the message, shown until sent.
 */
export function Composer({
  conversationId,
  turnRunning,
  queued,
  restored,
  disabled,
  modelPicker,
  onSend,
  onAbort,
}: ComposerProps) {
  const [text, setText] = useState(() => readUnsent(conversationId));
  useEffect(() => writeUnsent(conversationId, text), [conversationId, text]);
  const [files, setFiles] = useState<File[]>([]);
  const [dragging, setDragging] = useState(false);
  const picker = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (restored === undefined) return;
    setText((current) => (current.trim() === '' ? restored.text : `${restored.text}\n${current}`));
    setFiles((current) => [...restored.files, ...current]);
  }, [restored]);
  const canSend = !disabled && !(turnRunning && queued) && (text.trim() !== '' || files.length > 0);
  const add = (added: readonly File[]) => {
    if (added.length > 0) setFiles((current) => [...current, ...added]);
  };
  const send = () => {
    if (!canSend) return;
    onSend(text, files);
    setText('');
    setFiles([]);
  };
  return (
    <form
      class={`composer${dragging ? ' dragging' : ''}`}
      aria-label="Send a message"
      onSubmit={(event) => {
        event.preventDefault();
        send();
      }}
      onDragOver={(event) => {
        if (!event.dataTransfer?.types.includes('Files')) return;
        event.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={(event) => {
        setDragging(false);
        const dropped = [...(event.dataTransfer?.files ?? [])];
        if (dropped.length === 0) return;
        event.preventDefault();
        add(dropped);
      }}
    >
      {files.length > 0 && (
        <ul class="attachments" aria-label="Attachments">
          {files.map((file, index) => (
            <li key={index}>
              <span>{file.name}</span>
              <button
                type="button"
                aria-label={`Remove ${file.name}`}
                onClick={() => setFiles((current) => current.filter((_, at) => at !== index))}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      <textarea
        aria-label="Message"
        placeholder="Message the model… (paste or drop images and files)"
        rows={3}
        value={text}
        disabled={disabled}
        onInput={(event) => setText(event.currentTarget.value)}
        onPaste={(event) => {
          const pasted = [...(event.clipboardData?.files ?? [])];
          if (pasted.length === 0) return;
          // Files only: pasted text goes into the box as usual.
          event.preventDefault();
          add(pasted.map(named));
        }}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
            event.preventDefault();
            send();
          }
        }}
      />
      <div class="composer-actions">
        {modelPicker}
        <input
          ref={picker}
          type="file"
          multiple
          accept={ACCEPT}
          hidden
          aria-label="Attach files"
          onChange={(event) => {
            add([...(event.currentTarget.files ?? [])]);
            event.currentTarget.value = '';
          }}
        />
        <button type="button" class="attach" disabled={disabled} onClick={() => picker.current?.click()}>
          Attach
        </button>
        <button type="button" class="abort" onClick={onAbort} disabled={!turnRunning}>
          Abort
        </button>
        <button type="submit" class="send" disabled={!canSend}>
          {turnRunning ? 'Queue' : 'Send'}
        </button>
      </div>
    </form>
  );
}
