import { useEffect, useState } from 'preact/hooks';

// setTimeout's longest delay; a later time is waited for in more than one step.
const MAX_DELAY_MS = 2 ** 31 - 1;

/** Renders the component again at `time` (ms since the epoch), for what changes then (an expiry). */
export function useRenderAt(time: number | undefined): void {
  const [, setTick] = useState(0);
  useEffect(() => {
    if (time === undefined || !Number.isFinite(time)) return;
    const wait = time - Date.now();
    if (wait < 0) return;
    const timer = setTimeout(() => setTick((tick) => tick + 1), Math.min(wait + 1, MAX_DELAY_MS));
    return () => clearTimeout(timer);
  }, [time]);
}
