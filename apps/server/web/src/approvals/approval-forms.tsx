import { useEffect, useId, useRef, useState } from 'preact/hooks';
import { parseJsonInput } from './approval-text.js';

interface FormProps {
  /** A decision is being posted: the form waits. */
  disabled: boolean;
  onCancel(): void;
}

// The field a form opens with is where the user looks next (it opens on a click).
function useFocusOnOpen<T extends HTMLElement>() {
  const field = useRef<T>(null);
  useEffect(() => field.current?.focus(), []);
  return field;
}

// Escape leaves the form; handled here, the page's own Escape shortcut leaves it alone.
function leaveOnEscape(event: KeyboardEvent, onCancel: () => void): void {
  if (event.key !== 'Escape') return;
  event.preventDefault();
  onCancel();
}

/** Deny, with an optional reason the model reads. Escape (or Cancel) goes back to the choices. */
export function DenyForm({ disabled, onCancel, onDeny }: FormProps & { onDeny(reason: string): void }) {
  const [reason, setReason] = useState('');
  const field = useFocusOnOpen<HTMLInputElement>();
  return (
    <form
      class="approval-form"
      aria-label="Deny the call"
      onSubmit={(event) => {
        event.preventDefault();
        if (!disabled) onDeny(reason.trim());
      }}
    >
      <label class="approval-field">
        <span>Reason (optional, the model reads it)</span>
        <input
          ref={field}
          type="text"
          maxLength={2000}
          value={reason}
          onInput={(event) => setReason(event.currentTarget.value)}
          onKeyDown={(event) => leaveOnEscape(event, onCancel)}
        />
      </label>
      <div class="approval-actions">
        <button type="submit" class="deny" disabled={disabled}>
          Deny
        </button>
        <button type="button" onClick={onCancel} disabled={disabled}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** The call's input edited as JSON, checked to parse before it is sent (the tool checks it again). */
export function EditInputForm({
  initial,
  disabled,
  onCancel,
  onAllow,
}: FormProps & { initial: string; onAllow(input: unknown): void }) {
  const [text, setText] = useState(initial);
  const [error, setError] = useState<string>();
  const errorId = useId();
  const field = useFocusOnOpen<HTMLTextAreaElement>();
  return (
    <form
      class="approval-form"
      aria-label="Edit the input"
      onSubmit={(event) => {
        event.preventDefault();
        if (disabled) return;
        const parsed = parseJsonInput(text);
        if ('error' in parsed) setError(parsed.error);
        else onAllow(parsed.value);
      }}
    >
      <label class="approval-field">
        <span>Input as JSON</span>
        <textarea
          ref={field}
          rows={Math.min(12, text.split('\n').length + 1)}
          spellcheck={false}
          value={text}
          aria-invalid={error !== undefined}
          aria-describedby={error === undefined ? undefined : errorId}
          onInput={(event) => {
            setText(event.currentTarget.value);
            setError(undefined);
          }}
          onKeyDown={(event) => leaveOnEscape(event, onCancel)}
        />
      </label>
      {error !== undefined && (
        <p id={errorId} class="approval-error" role="alert">
          {error}
        </p>
      )}
      <div class="approval-actions">
        <button type="submit" class="approve" disabled={disabled}>
          Allow edited
        </button>
        <button type="button" onClick={onCancel} disabled={disabled}>
          Cancel
        </button>
      </div>
    </form>
  );
}
