/** A promise the test opens when it chooses: what a test waits on instead of a fixed delay. */
export interface Gate {
  /** Resolves once `open()` was called. */
  opened: Promise<void>;
  open(): void;
}

export function createGate(): Gate {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}
