import { type AgentOutput, type ConversationMessage, isLedgerRecord } from '@cairn/core';
import { createDisplayProjector } from '@cairn/message-processor';
import type { RunStepChangedEvent, RuntimeEvent } from '@cairn/runtime';
import type { OutputStream } from '../io.js';
import type { Colors } from './colors.js';
import { formatCount } from './format-numbers.js';
import { createMarkdownStream } from './markdown-stream.js';
import { renderDisplayMessage } from './render-display-message.js';
import type { RenderOptions } from './render-options.js';
import type { Spinner } from './spinner.js';
import { toolInputHint } from './tool-input-hint.js';

export interface LiveTurnRenderer {
  onEvent(event: AgentOutput | RuntimeEvent | RunStepChangedEvent): void;
  /** end of the turn: stop spinner, flush a trailing newline */
  finish(): void;
}

export interface LiveTurnRendererOptions {
  out: OutputStream;
  colors: Colors;
  /** Runs while the model thinks or tools run; stopped before anything is written. */
  spinner?: Spinner;
  /** Paths inside it are shown relative. */
  cwd?: string;
  width?: number | undefined;
  verbose?: boolean | undefined;
  /** Render the model's text as Markdown while it streams (see `markdownEnabled`). */
  markdown?: boolean | undefined;
  /** What the spinner says it waits for: "waiting for <modelLabel>…" (default "the model"). */
  modelLabel?: string;
  /**
   * Show the turn's stored error message (default true). `cairn -p` turns it off: its stdout is the
   * answer only, and the error goes to stderr as one line.
   */
  showErrors?: boolean;
  /**
   * Stored messages the turn goes on from (a resumed turn's calls and their records): the view
   * learns them, without printing them, so their results show as the calls' executions.
   */
  history?: readonly ConversationMessage[];
}

type StreamKind = 'text' | 'reasoning';

/**
 * Renders one running turn: the model's text and reasoning as they stream, and each stored
 * message through the display view — so a tool call shows as one line once its result is stored,
 * the same line a reloaded conversation shows. Text already streamed is not printed again when
 * its message is stored; the user's own input is not echoed. With `markdown` the text is rendered
 * line by line as it streams, exactly as the stored message renders later.
 */
export function createLiveTurnRenderer(options: LiveTurnRendererOptions): LiveTurnRenderer {
  const { out, colors, spinner } = options;
  const projector = createDisplayProjector(options.cwd === undefined ? {} : { cwd: options.cwd });
  const renderOptions: RenderOptions = {
    colors,
    width: options.width,
    verbose: options.verbose,
    markdown: options.markdown,
  };
  const markdown = options.markdown ? createMarkdownStream({ colors, width: options.width }) : undefined;
  const waitingForModel = `waiting for ${options.modelLabel ?? 'the model'}…`;
  let atLineStart = true;
  let streaming: StreamKind | undefined;
  // What the current model call streamed: its stored message must not print it twice.
  const streamed: Record<StreamKind, boolean> = { text: false, reasoning: false };
  let spinnerText: string | undefined;

  // `plain` is `chunk` without colour, to tell whether the output now ends a line.
  const write = (chunk: string, plain = chunk) => {
    if (plain === '') return;
    spinner?.stop();
    out.write(chunk);
    atLineStart = plain.endsWith('\n');
  };
  // The streamed text is over: what the Markdown stream still holds, then the end of its line.
  const endLine = () => {
    if (markdown !== undefined) write(markdown.end());
    if (!atLineStart) write('\n');
  };
  // The spinner draws on its own line: never over text still being streamed.
  const wait = (text = waitingForModel) => {
    if (spinner === undefined) return;
    endLine();
    spinnerText = text;
    spinner.start(text);
  };
  // Whole lines, with the spinner out of the way (and back when it was running, saying `then`).
  const print = (lines: string, then = spinnerText) => {
    if (lines === '') return;
    const waiting = spinner?.active === true;
    spinner?.stop();
    streaming = undefined;
    endLine();
    out.write(lines);
    atLineStart = true;
    if (waiting) wait(then);
  };
  // The spinner keeps running while the Markdown stream holds a line it cannot show yet.
  const stream = (kind: StreamKind, delta: string) => {
    if (streaming !== kind) endLine();
    streaming = kind;
    streamed[kind] = true;
    if (kind === 'reasoning') write(colors.dim(delta), delta);
    else write(markdown === undefined ? delta : markdown.push(delta));
  };

  const alreadyStreamed = (shown: ConversationMessage) => {
    if (shown.role !== 'assistant') return false;
    if (shown.partType === 'thinking') return streamed.reasoning;
    return (shown.partType === undefined || shown.partType === 'content') && streamed.text;
  };

  const persisted = (message: ConversationMessage) => {
    const shownNow = projector.push(message);
    // A ledger record (a request, its decision, an attempt) moves a call along; the call's line
    // shows once, with its result, or at the end as still awaiting approval.
    if (isLedgerRecord(message)) return;
    for (const shown of shownNow) {
      if (shown.role === 'user' || alreadyStreamed(shown)) continue;
      if (shown.partType === 'error' && options.showErrors === false) continue;
      // A result is in: the model (or the next tool) is at work again.
      const done = shown.partType === 'tool_execution';
      print(renderDisplayMessage(shown, renderOptions), done ? waitingForModel : spinnerText);
      if (done) wait();
    }
    // The next model call streams anew.
    if (message.role === 'assistant') {
      streamed.text = false;
      streamed.reasoning = false;
    }
  };

  const onRuntimeEvent = (event: RuntimeEvent | RunStepChangedEvent) => {
    switch (event.event) {
      case 'message_persisted':
        return persisted(event.message);
      case 'compression_applied': {
        const tokens = `${formatTokens(event.tokensBefore)} → ${formatTokens(event.tokensAfter)}`;
        return print(`${colors.dim(`context compressed: ${tokens} tokens`)}\n`);
      }
      case 'run_step_changed': {
        const completed = event.status === 'completed' ? ', workflow completed' : '';
        return print(`${colors.cyan(`step ${event.from} → ${event.to}${completed}`)}\n`);
      }
    }
  };

  for (const message of options.history ?? []) projector.push(message);
  wait();
  return {
    onEvent(event) {
      if (event.type === 'runtime') return onRuntimeEvent(event);
      switch (event.type) {
        case 'text_delta':
          return stream('text', event.delta);
        case 'reasoning_delta':
          return stream('reasoning', event.delta);
        case 'tool_use': {
          const hint = toolInputHint(event.input, options.cwd);
          return wait(`running ${event.toolName}${hint === '' ? '' : ` ${hint}`}…`);
        }
      }
      // Errors are shown from the error message the runtime stores; other events add nothing to see.
    },
    finish() {
      spinner?.stop();
      for (const shown of projector.end()) print(renderDisplayMessage(shown, renderOptions));
      endLine();
    },
  };
}

function formatTokens(tokens: number): string {
  return formatCount(tokens);
}
