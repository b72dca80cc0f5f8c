import { useEffect, useRef, useState } from 'preact/hooks';
import { PendingDeletes } from './pending-deletes.js';

/**
 * Deletes that wait out their undo window, for the page's lifetime; all are sent at once when the
 * page is being left (hidden or unloaded), since a timer may never fire after that.
 */
export function usePendingDeletes<Item extends { id: string }>(send: (item: Item) => void) {
  const latestSend = useRef(send);
  latestSend.current = send;
  const [deletes] = useState(() => new PendingDeletes<Item>((item) => latestSend.current(item)));
  const [items, setItems] = useState<readonly Item[]>([]);
  useEffect(() => {
    const unsubscribe = deletes.subscribe(() => setItems(deletes.items));
    const sendAll = () => deletes.sendAll();
    const sendAllWhenHidden = () => {
      if (document.visibilityState === 'hidden') deletes.sendAll();
    };
    window.addEventListener('pagehide', sendAll);
    document.addEventListener('visibilitychange', sendAllWhenHidden);
    return () => {
      unsubscribe();
      window.removeEventListener('pagehide', sendAll);
      document.removeEventListener('visibilitychange', sendAllWhenHidden);
    };
  }, [deletes]);
  return {
    items,
    schedule: (item: Item) => deletes.schedule(item),
    undo: (id: string) => deletes.undo(id),
  };
}
