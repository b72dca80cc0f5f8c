import { useState } from 'preact/hooks';

export interface ComposerProps {
  turnRunning: boolean;
  disabled: boolean;
  onSend(text: string): void;
  onAbort(): void;
}

/** The send box: Enter sends, Shift+Enter adds a line; Abort stops the running turn. */
export function Composer({ turnRunning, disabled, onSend, onAbort }: ComposerProps) {
  const [text, setText] = useState('');
  const canSend = !disabled && !turnRunning && text.trim() !== '';
  const send = () => {
    if (!canSend) return;
    onSend(text);
    setText('');
  };
  return (
    <form
      class="composer"
      aria-label="Send a message"
      onSubmit={(event) => {
        event.preventDefault();
        send();
      }}
    >
      <textarea
        aria-label="Message"
        placeholder="Message the model…"
        rows={3}
        value={text}
        disabled={disabled}
        onInput={(event) => setText(event.currentTarget.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
            event.preventDefault();
            send();
          }
        }}
      />
      <div class="composer-actions">
        <button type="button" class="abort" onClick={onAbort} disabled={!turnRunning}>
          Abort
        </button>
        <button type="submit" class="send" disabled={!canSend}>
          Send
        </button>
      </div>
    </form>
  );
}
