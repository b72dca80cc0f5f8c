import { useEffect, useRef } from 'preact/hooks';

export interface UndoDeletesProps {
  deleted: readonly { id: string; title: string }[];
  onUndo(id: string): void;
}

/** The deleted conversations whose delete waits, each with its Undo button (focused when it appears). */
export function UndoDeletes({ deleted, onUndo }: UndoDeletesProps) {
  const region = useRef<HTMLDivElement>(null);
  const newestId = deleted.at(-1)?.id;
  // The Delete button that had focus is gone with its row: the keyboard goes on to the newest Undo.
  useEffect(() => {
    if (newestId !== undefined)
      region.current?.querySelector<HTMLButtonElement>('p:last-child button')?.focus();
  }, [newestId]);
  if (deleted.length === 0) return null;
  return (
    <div class="undo-deletes" role="status" ref={region}>
      {deleted.map((item) => (
        <p key={item.id} class="undo-delete">
          <span class="undo-delete-text">Deleted “{item.title}”</span>
          <button type="button" aria-label={`Undo deleting “${item.title}”`} onClick={() => onUndo(item.id)}>
            Undo
          </button>
        </p>
      ))}
    </div>
  );
}
