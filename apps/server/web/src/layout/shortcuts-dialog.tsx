import { useEffect, useId, useRef } from 'preact/hooks';
import { SHORTCUTS } from './use-keyboard-shortcuts.js';

export interface ShortcutsDialogProps {
  open: boolean;
  onClose(): void;
}

/** The keyboard shortcuts, listed in a modal dialog (the browser's: Escape closes it, focus returns). */
export function ShortcutsDialog({ open, onClose }: ShortcutsDialogProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const element = dialog.current;
    if (element === null) return;
    if (open && !element.open) element.showModal();
    if (!open && element.open) element.close();
  }, [open]);
  return (
    <dialog ref={dialog} class="shortcuts-dialog" aria-labelledby={titleId} onClose={onClose}>
      <h2 id={titleId}>Keyboard shortcuts</h2>
      <dl class="shortcut-list">
        {SHORTCUTS.map(({ keys, does }) => (
          <div key={keys} class="shortcut">
            <dt>
              <kbd>{keys}</kbd>
            </dt>
            <dd>{does}</dd>
          </div>
        ))}
      </dl>
      <div class="dialog-actions">
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
    </dialog>
  );
}
