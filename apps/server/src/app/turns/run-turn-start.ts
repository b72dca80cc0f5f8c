/** A turn that got past its checks: its events (from the first) and its outcome. */
export interface StartedTurn<E, R> {
  /** Settles when the turn ended; callers await it (a rejection is also kept from going unhandled). */
  result: Promise<R>;
  /** Gives `listener` the events so far, then each one as it comes (one listener, set once). */
  listen(listener: (event: E) => void): void;
}

/**
 * Starts `work` and waits until it emits its first event or settles. A turn that fails before it
 * emits anything (an unknown run or workflow, an agent session with nothing to resume) has stored
 * nothing: its error rejects this promise, so the route can answer it with its own status (404,
 * 400, …) instead of inside a stream that already said 200. Events until `listen` are buffered.
 */
export async function startTurn<E, R>(
  work: (emit: (event: E) => void) => Promise<R>,
): Promise<StartedTurn<E, R>> {
  const buffered: E[] = [];
  let listener: ((event: E) => void) | undefined;
  let markStarted = () => {};
  const started = new Promise<void>((resolve) => {
    markStarted = resolve;
  });
  const result = work((event) => {
    markStarted();
    if (listener === undefined) buffered.push(event);
    else listener(event);
  });
  // Handled here too: a failure after the first event is awaited by the caller a little later.
  result.catch(() => undefined);
  await Promise.race([started, result]);
  return {
    result,
    listen(next) {
      listener = next;
      for (const event of buffered.splice(0)) next(event);
    },
  };
}
