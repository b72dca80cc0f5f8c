/**
 * A promise a test settles by hand: the code under test waits on `promise`, the test calls `open`
 * when the moment comes — instead of sleeping and hoping the other side got there first.
 * (`Promise.withResolvers` arrived in Node 22; Cairn supports Node 20.)
 */
export interface Gate<T = void> {
  readonly promise: Promise<T>;
  open(value: T): void;
  fail(reason: unknown): void;
}

export function createGate<T = void>(): Gate<T> {
  let open!: (value: T) => void;
  let fail!: (reason: unknown) => void;
  const promise = new Promise<T>((resolve, reject) => {
    open = resolve;
    fail = reject;
  });
  return { promise, open, fail };
}
