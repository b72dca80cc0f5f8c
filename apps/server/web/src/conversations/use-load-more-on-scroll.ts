import type { RefObject } from 'preact';
import { useEffect } from 'preact/hooks';

/**
 * Calls `loadMore` while there is more and `sentinel` is within 200 px of the end of `scroller`.
 * Observing anew after each change of `rowCount` checks again a sentinel still in view after a page came.
 */
export function useLoadMoreOnScroll(
  scroller: RefObject<HTMLElement | null>,
  sentinel: RefObject<HTMLElement | null>,
  { rowCount, hasMore }: { rowCount: number; hasMore: boolean },
  loadMore: () => void,
): void {
  useEffect(() => {
    const target = sentinel.current;
    if (!hasMore || rowCount === 0 || target === null || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) loadMore();
      },
      { root: scroller.current, rootMargin: '0px 0px 200px 0px' },
    );
    observer.observe(target);
    return () => observer.disconnect();
  }, [scroller, sentinel, rowCount, hasMore, loadMore]);
}
