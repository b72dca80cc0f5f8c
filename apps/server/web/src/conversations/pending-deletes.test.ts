import { describe, expect, it } from 'vitest';
import { PendingDeletes, type Timers, UNDO_WINDOW_MS } from './pending-deletes.js';

/** A clock the test moves by hand. */
function manualTimers(): Timers & { advance(ms: number): void } {
  let now = 0;
  const due = new Map<number, { at: number; callback: () => void }>();
  let nextHandle = 1;
  return {
    set(callback, ms) {
      const handle = nextHandle++;
      due.set(handle, { at: now + ms, callback });
      return handle;
    },
    clear(handle) {
      due.delete(handle as number);
    },
    advance(ms) {
      now += ms;
      for (const [handle, timer] of [...due]) {
        if (timer.at > now) continue;
        due.delete(handle);
        timer.callback();
      }
    },
  };
}

function setUp() {
  const timers = manualTimers();
  const sent: string[] = [];
  const deletes = new PendingDeletes<{ id: string }>((item) => sent.push(item.id), timers);
  return { timers, sent, deletes };
}

describe('pending deletes', () => {
  it('sends a delete once its undo window has passed, not before', () => {
    const { timers, sent, deletes } = setUp();
    deletes.schedule({ id: 'a' });
    timers.advance(UNDO_WINDOW_MS - 1);
    expect(sent).toEqual([]);
    expect(deletes.has('a')).toBe(true);
    timers.advance(1);
    expect(sent).toEqual(['a']);
    expect(deletes.items).toEqual([]);
    timers.advance(UNDO_WINDOW_MS);
    expect(sent).toEqual(['a']);
  });

  it('never sends an undone delete', () => {
    const { timers, sent, deletes } = setUp();
    deletes.schedule({ id: 'a' });
    timers.advance(1000);
    expect(deletes.undo('a')).toEqual({ id: 'a' });
    timers.advance(UNDO_WINDOW_MS);
    expect(sent).toEqual([]);
    expect(deletes.undo('a')).toBeUndefined();
  });

  it('sends every waiting delete at once when the page is left, and none again later', () => {
    const { timers, sent, deletes } = setUp();
    deletes.schedule({ id: 'a' });
    timers.advance(1000);
    deletes.schedule({ id: 'b' });
    deletes.schedule({ id: 'c' });
    deletes.undo('c');
    deletes.sendAll();
    expect(sent).toEqual(['a', 'b']);
    timers.advance(UNDO_WINDOW_MS);
    expect(sent).toEqual(['a', 'b']);
  });

  it('keeps one window per conversation, and tells its listeners of each change', () => {
    const { timers, sent, deletes } = setUp();
    let changes = 0;
    const unsubscribe = deletes.subscribe(() => changes++);
    deletes.schedule({ id: 'a' });
    timers.advance(3000);
    deletes.schedule({ id: 'a' }); // a second click does not restart the window
    timers.advance(3000);
    expect(sent).toEqual(['a']);
    expect(changes).toBe(2);
    unsubscribe();
    deletes.schedule({ id: 'b' });
    expect(changes).toBe(2);
  });
});
