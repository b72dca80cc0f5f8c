import type { AgentRunError, AgentRunOptions } from '@cairn/agent-executor';
import { type ConversationMessage, contentText } from '@cairn/core';
import { LiveDisplay } from '@cairn/message-processor';
import type { OutputStream } from '../io.js';
import type { Colors } from '../render/colors.js';
import { fitWidth, flattenLines } from '../render/fit-width.js';
import { renderDisplayMessage } from '../render/render-display-message.js';
import { agentStatusLine } from './live-agent-output-status.js';

// Move to the start of the line `n` lines up, then erase to the end of the screen.
const eraseLinesAbove = (n: number) => `\r\x1b[${n}A\x1b[J`;
// A terminal that does not say its width: running lines are cut to this, so none wraps.
const DEFAULT_COLUMNS = 80;

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
 * lines. A call is shown as running the moment it starts: on a terminal its line stays at the
 * bottom and is replaced by the finished execution; elsewhere the running line is printed, then
 * the finished one. Pass `listeners` to the run and call `end` after it.
 */
export class LiveAgentOutput {
  readonly listeners: Pick<AgentRunOptions, 'onEvent' | 'onDisplayMessage' | 'onLiveDisplayMessage'>;
  // The stored prompt is the first display message; the user has just typed it.
  private promptSkipped = false;
  // An error held back until the next message: if it is the run's failure, the command reports it.
  private heldError: ConversationMessage | undefined;
  // Calls shown running and not finished yet: their lines, by display id.
  private readonly running = new Map<string, string>();
  // On a terminal, how many running lines are at the bottom of the screen (redrawn as one block).
  private runningLinesShown = 0;

  constructor(private readonly options: LiveAgentOutputOptions) {
    const { out } = options;
    const display = new LiveDisplay((message) => this.show(message));
    this.listeners = options.json
      ? { onEvent: (event) => out.write(`${JSON.stringify(event)}\n`) }
      : {
          onDisplayMessage: display.logged,
          onLiveDisplayMessage: display.live,
          // Retries, task progress and interruptions are no messages: each gets its own line.
          onEvent: (event) => {
            const line = agentStatusLine(event, options.colors, options.verbose === true);
            if (line !== undefined) this.write(`${line}\n`);
          },
        };
  }

  /** The run ended: a held error is shown unless it is `failure`, which the caller prints itself. */
  end(failure?: AgentRunError): void {
    // Running lines left (the store failed before their calls finished) stay on screen as they are.
    this.running.clear();
    this.runningLinesShown = 0;
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
    this.showHeldError();
    if (message.toolExecution?.status === 'running') this.showRunning(message);
    else if (message.partType === 'error') this.heldError = message;
    else this.render(message);
  }

  private showHeldError(): void {
    const held = this.heldError;
    this.heldError = undefined;
    if (held !== undefined) this.render(held);
  }

  private showRunning(message: ConversationMessage): void {
    const { colors, out } = this.options;
    const summary = fitWidth(
      flattenLines(contentText(message.content, { placeholders: true })),
      (out.columns ?? DEFAULT_COLUMNS) - 2,
    );
    const line = `${colors.cyan('▸')} ${colors.dim(summary)}\n`;
    if (!out.isTTY) {
      out.write(line);
      return;
    }
    this.redraw(() => this.running.set(message.id, line));
  }

  private render(message: ConversationMessage): void {
    const { out, colors, verbose, markdown } = this.options;
    const text = renderDisplayMessage(message, { colors, width: out.columns, verbose, markdown });
    this.running.delete(message.id);
    this.write(text);
  }

  // On a terminal with running lines at the bottom, they are erased, `text` printed in their place,
  // and the calls still running drawn again below it: a finished call replaces its running line,
  // and a status line never lands between the running lines and the cursor.
  private write(text: string): void {
    const { out } = this.options;
    if (!out.isTTY || this.runningLinesShown === 0) out.write(text);
    else this.redraw(() => out.write(text));
  }

  // Erases the running lines, runs `change`, then draws the running lines again (one row each:
  // they are cut to the terminal's width).
  private redraw(change: () => void): void {
    const { out } = this.options;
    if (this.runningLinesShown > 0) out.write(eraseLinesAbove(this.runningLinesShown));
    change();
    for (const line of this.running.values()) out.write(line);
    this.runningLinesShown = this.running.size;
  }
}
