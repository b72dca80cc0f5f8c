/** The README's first ```js block and the ```text block after "It prints:" (if any). */
export declare function readReadmeExample(readmeUrl: URL): Promise<{ code: string; printed?: string }>;
/** Runs the example with the package directory as working directory; returns its stdout and the documented output. */
export declare function runReadmeExample(
  readmeUrl: URL,
  options?: { env?: Record<string, string | undefined> },
): Promise<{ stdout: string; printed?: string }>;
