import type { Colors } from './colors.js';

// Its own module: render-display-message.ts renders tool executions with render-tool-execution.ts,
// and both take these options (no import cycle).
export interface RenderOptions {
  colors: Colors;
  /** terminal width for truncating one-line summaries */
  width?: number | undefined;
  /** full command output and unlimited diffs */
  verbose?: boolean | undefined;
  /** The assistant's text rendered as Markdown (see `markdownEnabled`); as it is otherwise. */
  markdown?: boolean | undefined;
}
