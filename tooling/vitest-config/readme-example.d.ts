export interface ReadmeExampleOptions {
  /** The heading (its text, any level) whose section holds the example; the whole README when absent. */
  section?: string;
}
/** The text under the heading titled `title`, up to the next heading of the same or a higher level. */
export declare function readmeSection(readme: string, title: string): string | undefined;
/**
 * The first ```js block (of the README, or of its section `options.section`) and the ```text
 * block after the "It prints:" that follows it (if any).
 */
export declare function readReadmeExample(
  readmeUrl: URL,
  options?: ReadmeExampleOptions,
): Promise<{ code: string; printed?: string }>;
/** Runs the example with the package directory as working directory; returns its stdout and the documented output. */
export declare function runReadmeExample(
  readmeUrl: URL,
  options?: ReadmeExampleOptions & { env?: Record<string, string | undefined> },
): Promise<{ stdout: string; printed?: string }>;
