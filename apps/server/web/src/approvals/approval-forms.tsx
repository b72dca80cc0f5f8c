import type { ComponentChildren } from 'preact';
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

interface FrameProps extends FormProps {
  /** The form's accessible name. */
  name: string;
  fieldLabel: string;
  /** The one field, labelled by `fieldLabel`. */
  children: ComponentChildren;
  /** Under the field, announced when it appears; `id` is what the field's `aria-describedby` names. */
  error?: { id: string; message: string } | undefined;
  submitText: string;
  submitClass: 'approve' | 'deny';
  /** Called on submit unless the form waits. */
  onSubmit(): void;
}

// What Deny and Edit share: one labelled field, an error under it, then submit and Cancel.
function ApprovalFormFrame({
  name,
  fieldLabel,
  children,
  error,
  submitText,
  submitClass,
  disabled,
  onSubmit,
  onCancel,
}: FrameProps) {
  return (
    <form
      class="approval-form"
      aria-label={name}
      onSubmit={(event) => {
        event.preventDefault();
        if (!disabled) onSubmit();
      }}
    >
      {/* biome-ignore lint/a11y/noLabelWithoutControl: the control is `children`, which the lint cannot see into */}
      <label class="approval-field">
        <span>{fieldLabel}</span>
        {children}
      </label>
      {error !== undefined && (
        <p id={error.id} class="approval-error" role="alert">
          {error.message}
        </p>
      )}
      <div class="approval-actions">
        <button type="submit" class={submitClass} disabled={disabled}>
          {submitText}
        </button>
        <button type="button" onClick={onCancel} disabled={disabled}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** Deny, with an optional reason the model reads. Escape (or Cancel) goes back to the choices. */
export function DenyForm({ disabled, onCancel, onDeny }: FormProps & { onDeny(reason: string): void }) {
  const [reason, setReason] = useState('');
  const field = useFocusOnOpen<HTMLInputElement>();
  return (
    <ApprovalFormFrame
      name="Deny the call"
      fieldLabel="Reason (optional, the model reads it)"
      submitText="Deny"
      submitClass="deny"
      disabled={disabled}
      onSubmit={() => onDeny(reason.trim())}
      onCancel={onCancel}
    >
      <input
        ref={field}
        type="text"
        maxLength={2000}
        value={reason}
        onInput={(event) => setReason(event.currentTarget.value)}
        onKeyDown={(event) => leaveOnEscape(event, onCancel)}
      />
    </ApprovalFormFrame>
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
    <ApprovalFormFrame
      name="Edit the input"
      fieldLabel="Input as JSON"
      error={error === undefined ? undefined : { id: errorId, message: error }}
      submitText="Allow edited"
      submitClass="approve"
      disabled={disabled}
      onSubmit={() => {
        const parsed = parseJsonInput(text);
        if ('error' in parsed) setError(parsed.error);
        else onAllow(parsed.value);
      }}
      onCancel={onCancel}
    >
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
    </ApprovalFormFrame>
  );
}
