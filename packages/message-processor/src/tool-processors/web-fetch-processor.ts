import { defineToolProcessor } from './define-tool-processor.js';
import { truncate } from './summary-text.js';
import type { ToolCallView, ToolProcessor } from './tool-call-view.js';
import { inputText } from './tool-input.js';

const MAX_URL_LENGTH = 80;
const URL_IN_TEXT = /\bhttps?:\/\/[^\s"'<>`)\]]+/i;

/** The fetched URL: the `url` field (Claude Code), else the first URL in the `prompt` (Gemini CLI). */
function urlOf(call: ToolCallView): string | undefined {
  return inputText(call, 'url') ?? URL_IN_TEXT.exec(inputText(call, 'prompt') ?? '')?.[0];
}

/** Web fetches: "Fetched https://…". */
export function createWebFetchProcessor(toolNames: readonly string[]): ToolProcessor {
  return defineToolProcessor({
    toolNames,
    label: 'Fetch',
    summarize: (call) => {
      const url = urlOf(call);
      return url === undefined ? 'Fetched a web page' : `Fetched ${truncate(url, MAX_URL_LENGTH)}`;
    },
  });
}
