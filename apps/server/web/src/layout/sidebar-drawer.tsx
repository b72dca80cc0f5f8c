import type { ComponentChildren, RefObject } from 'preact';
import { useEffect, useLayoutEffect, useRef } from 'preact/hooks';

export interface SidebarDrawerProps {
  id: string;
  /** A narrow screen: the sidebar slides over the chat instead of standing beside it. */
  narrow: boolean;
  /** Shown: the drawer open (narrow), the sidebar not collapsed (wide). */
  open: boolean;
  /** Closes the drawer (narrow only): a backdrop click, a conversation chosen. */
  onClose(): void;
  /** Where the focus goes back to when the drawer closes (the button that opened it). */
  returnFocusTo: RefObject<HTMLElement | null>;
  children: ComponentChildren;
}

const FOCUSABLE = 'button:not(:disabled), a[href], input:not(:disabled)';

/** The conversation list's container: beside the chat on wide screens, an off-canvas drawer on narrow ones. */
export function SidebarDrawer({ id, narrow, open, onClose, returnFocusTo, children }: SidebarDrawerProps) {
  const drawer = useRef<HTMLDivElement>(null);
  const drawerOpen = narrow && open;
  const wasOpen = useRef(drawerOpen);
  // The focus follows the drawer: into it as it opens, back to its button as it closes.
  useLayoutEffect(() => {
    if (wasOpen.current === drawerOpen) return;
    wasOpen.current = drawerOpen;
    const element = drawer.current;
    const focused = document.activeElement;
    const focusInside = element !== null && focused !== null && element.contains(focused);
    if (drawerOpen && !focusInside) element?.querySelector<HTMLElement>(FOCUSABLE)?.focus();
    if (!drawerOpen && (focusInside || focused === document.body)) returnFocusTo.current?.focus();
  }, [drawerOpen, returnFocusTo]);
  // Choosing a conversation closes the drawer, even the one already open (its address does not change).
  useEffect(() => {
    const element = drawer.current;
    if (!drawerOpen || element === null) return;
    const onClick = (event: MouseEvent) => {
      if (event.target instanceof Element && event.target.closest('a[href]') !== null) onClose();
    };
    element.addEventListener('click', onClick);
    return () => element.removeEventListener('click', onClick);
  }, [drawerOpen, onClose]);
  return (
    <>
      <div id={id} ref={drawer} class="sidebar-drawer">
        {children}
      </div>
      {drawerOpen && (
        // Pointer only: the keyboard closes the drawer with Escape, a screen reader with its Close button.
        <div class="drawer-backdrop" aria-hidden="true" onClick={onClose} />
      )}
    </>
  );
}
