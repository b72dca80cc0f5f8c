import { useCallback, useLayoutEffect, useRef, useState } from 'preact/hooks';

type FocusTarget = () => HTMLElement | null | undefined;

/**
 * Focuses an element once the page has rendered again: it may not be focusable yet (inside the
 * drawer being opened, or the pane the open drawer makes inert).
 */
export function useFocusAfterRender(): (target: FocusTarget) => void {
  const pending = useRef<FocusTarget | undefined>(undefined);
  const [, rerender] = useState(0);
  useLayoutEffect(() => {
    const target = pending.current;
    pending.current = undefined;
    target?.()?.focus();
  });
  return useCallback((target: FocusTarget) => {
    pending.current = target;
    rerender((count) => count + 1);
  }, []);
}
