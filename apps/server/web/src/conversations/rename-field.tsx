import { useId, useLayoutEffect, useRef, useState } from 'preact/hooks';

export interface RenameFieldProps {
  initialTitle: string;
  /** Saves the title; a thrown error's message is shown under the field. */
  onSave(title: string): Promise<void>;
  onClose(): void;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** A conversation's title, edited in place: Enter saves, Escape cancels. */
export function RenameField({ initialTitle, onSave, onClose }: RenameFieldProps) {
  const [title, setTitle] = useState(initialTitle);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string>();
  const input = useRef<HTMLInputElement>(null);
  const errorId = useId();
  // Before the next paint: keys typed right after opening land in the field.
  useLayoutEffect(() => {
    input.current?.focus();
    input.current?.select();
  }, []);

  const save = async (event: SubmitEvent) => {
    event.preventDefault();
    setSaving(true);
    try {
      await onSave(title.trim());
      onClose();
    } catch (failure) {
      setError(messageOf(failure));
      setSaving(false);
      input.current?.focus();
    }
  };
  return (
    <form class="rename-form" onSubmit={(event) => void save(event)}>
      <input
        ref={input}
        type="text"
        aria-label="Conversation title"
        value={title}
        readOnly={saving}
        aria-invalid={error !== undefined}
        aria-describedby={error === undefined ? undefined : errorId}
        onInput={(event) => setTitle(event.currentTarget.value)}
        onKeyDown={(event) => {
          if (event.key !== 'Escape') return;
          event.preventDefault();
          onClose();
        }}
      />
      {error !== undefined && (
        <p id={errorId} class="form-error rename-error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}
