import { useEffect, useRef } from 'preact/hooks';

/** What a shortcut does; the page decides how. */
export type ShortcutAction =
  | 'focus-search'
  | 'new-conversation'
  | 'focus-message'
  | 'previous-conversation'
  | 'next-conversation'
  | 'show-shortcuts'
  | 'close';

/** The parts of a key press the shortcuts look at (a KeyboardEvent has them all). */
export interface KeyPress {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
  isComposing?: boolean;
}

/** The shortcuts, as the dialog lists them. */
export const SHORTCUTS: readonly { keys: string; does: string }[] = [
  { keys: 'Ctrl/⌘ + K', does: 'Search conversations' },
  { keys: 'Ctrl/⌘ + Shift + O', does: 'New conversation' },
  { keys: '/', does: 'Write a message' },
  { keys: 'Alt + ↑ / Alt + ↓', does: 'Previous / next conversation' },
  { keys: '?', does: 'Show these shortcuts' },
  { keys: 'Escape', does: 'Close a dialog or the conversation list' },
];

/**
 * The action a key press asks for, or undefined. `?` and `/` are typed characters: they act only
 * when the focus is not where text is written. Ctrl on one system is ⌘ on a Mac: either does.
 */
export function matchShortcut(press: KeyPress, inTextField: boolean): ShortcutAction | undefined {
  if (press.isComposing === true) return undefined;
  const command = press.ctrlKey !== press.metaKey; // one of them, not both
  const key = press.key.length === 1 ? press.key.toLowerCase() : press.key;
  if (command && !press.altKey) {
    if (key === 'k' && !press.shiftKey) return 'focus-search';
    if (key === 'o' && press.shiftKey) return 'new-conversation';
    return undefined;
  }
  if (press.ctrlKey || press.metaKey) return undefined;
  if (press.altKey) {
    if (press.shiftKey) return undefined;
    if (key === 'ArrowUp') return 'previous-conversation';
    if (key === 'ArrowDown') return 'next-conversation';
    return undefined;
  }
  if (key === 'Escape' && !press.shiftKey) return 'close';
  if (inTextField) return undefined;
  // `?` is Shift+/ on most layouts: Shift is part of typing it.
  if (key === '?') return 'show-shortcuts';
  if (key === '/' && !press.shiftKey) return 'focus-message';
  return undefined;
}

const NOT_TYPED_INTO = new Set([
  'button',
  'checkbox',
  'color',
  'file',
  'image',
  'radio',
  'range',
  'reset',
  'submit',
]);

/** True for an element text is typed into: a text box, a text area, a select, editable content. */
export function isTextField(element: {
  tagName: string;
  type?: string;
  isContentEditable?: boolean;
}): boolean {
  const tag = element.tagName.toLowerCase();
  if (tag === 'textarea' || tag === 'select' || element.isContentEditable === true) return true;
  return tag === 'input' && !NOT_TYPED_INTO.has((element.type ?? 'text').toLowerCase());
}

/**
 * Calls `onAction` for the page's shortcuts, pressed anywhere. A key something else already
 * handled (Escape leaving a rename) is left alone.
 */
export function useKeyboardShortcuts(onAction: (action: ShortcutAction) => boolean): void {
  // The latest handler, without listening again on every render.
  const handler = useRef(onAction);
  handler.current = onAction;
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented) return;
      const target = event.target instanceof HTMLElement ? event.target : undefined;
      const action = matchShortcut(event, target !== undefined && isTextField(target));
      // The handler says whether it used the key: an unused Escape or `/` does what it always does.
      if (action !== undefined && handler.current(action)) event.preventDefault();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, []);
}
