import { useEffect, useRef, useState } from 'preact/hooks';

/** A user message being edited in place: Enter (or Send) sends it as a branch, Escape (or Cancel) leaves it. */
export function MessageEditor({
  initial,
  onSend,
  onCancel,
}: {
  initial: string;
  onSend(text: string): void;
  onCancel(): void;
}) {
  const [text, setText] = useState(initial);
  const field = useRef<HTMLTextAreaElement>(null);
  // The editor opens on a click on Edit: the text is where the user looks next.
  useEffect(() => field.current?.focus(), []);
  const send = () => {
    if (text.trim() !== '') onSend(text);
  };
  return (
    <form
      class="message-editor"
      aria-label="Edit message"
      onSubmit={(event) => {
        event.preventDefault();
        send();
      }}
    >
      <textarea
        aria-label="Edited message"
        value={text}
        rows={3}
        ref={field}
        onInput={(event) => setText(event.currentTarget.value)}
        onKeyDown={(event) => {
          if (event.key === 'Escape') onCancel();
          if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
            event.preventDefault();
            send();
          }
        }}
      />
      <div class="message-editor-actions">
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" disabled={text.trim() === ''}>
          Send
        </button>
      </div>
    </form>
  );
}
