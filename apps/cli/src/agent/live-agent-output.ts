import type { AgentRunError, AgentRunOptions } from '@cairn/agent-executor';
import type { ConversationMessage } from '@cairn/core';
import type { OutputStream } from '../io.js';
import type { Colors } from '../render/colors.js';
import { renderDisplayMessage } from '../render/render-display-message.js';
import { agentStatusLine } from './live-agent-output-status.js';

export interface LiveAgentOutputOptions {
  out: OutputStream;
  colors: Colors;
  /** Every `AgentOutput` event as one JSON line, instead of the rendered display view. */
  json?: boolean | undefined;
  verbose?: boolean | undefined;
  /** The agent's answers rendered as Markdown (see `markdownEnabled`). */
  markdown?: boolean | undefined;
}

/**
 * What a run shows while it runs: the display view rendered for the terminal (each tool call
 * merged with its result into one line and a diff), or with `json` the converted events as JSON
 * lines. Pass `listeners` to the run and call `end` after it.
 */
export class LiveAgentOutput {
  readonly listeners: Pick<AgentRunOptions, 'onEvent' | 'onDisplayMessage'>;
  // The stored prompt is the first display message; the user has just typed it.
  private promptSkipped = false;
  // An error held back until the next message: if it is the run's failure, the command reports it.
  private heldError: ConversationMessage | undefined;

  constructor(private readonly options: LiveAgentOutputOptions) {
    const { out } = options;
    this.listeners = options.json
      ? { onEvent: (event) => out.write(`${JSON.stringify(event)}\n`) }
      : {
          onDisplayMessage: (message) => this.show(message),
          // Retries, task progress and interruptions are no messages: each gets its own line.
          onEvent: (event) => {
            const line = agentStatusLine(event, options.colors, options.verbose === true);
            if (line !== undefined) out.write(`${line}\n`);
          },
        };
  }

  /** The run ended: a held error is shown unless it is `failure`, which the caller prints itself. */
  end(failure?: AgentRunError): void {
    const held = this.heldError;
    this.heldError = undefined;
    if (held === undefined) return;
    if (failure !== undefined && held.errorCode === failure.code && held.content === failure.message) return;
    this.render(held);
  }

  private show(message: ConversationMessage): void {
    if (!this.promptSkipped && message.role === 'user') {
      this.promptSkipped = true;
      return;
    }
    this.end();
    if (message.partType === 'error') this.heldError = message;
    else this.render(message);
  }

  private render(message: ConversationMessage): void {
    const { out, colors, verbose, markdown } = this.options;
    out.write(renderDisplayMessage(message, { colors, width: out.columns, verbose, markdown }));
  }
}
