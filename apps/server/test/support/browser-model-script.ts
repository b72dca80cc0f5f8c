import type { ModelRequest } from '@cairn/core';
import type { ScriptTurn } from '@cairn/testing';

/** What the browser test types, and what the scripted model answers. */
export const BROWSER_SCRIPT = {
  editPrompt: 'Please change the greeting in notes.txt',
  slowPrompt: 'Think about this slowly',
  toolIntro: 'I will edit the file, then check it.',
  finalReply: 'Done: notes.txt now greets the web, and the check ran fine.',
  fileBefore: 'hello world\nsecond line\n',
  fileAfter: 'hello web\nsecond line\n',
  checkCommand: 'echo greeting-checked',
} as const;

/** Prompts that get a plain, quick reply (no tools): `plainReply(prompt)`. */
export const PLAIN_PROMPT_PREFIX = 'Say ';

export const plainReply = (prompt: string) => `Heard ${prompt.slice(PLAIN_PROMPT_PREFIX.length)}.`;

/** A prompt starting with this gets the rest of it back as the reply, streamed in small, slow chunks: `markdownReply(prompt)`. */
export const MARKDOWN_PROMPT_PREFIX = 'Reply with this Markdown:\n';

export const markdownReply = (prompt: string) => prompt.slice(MARKDOWN_PROMPT_PREFIX.length);

/** A prompt that gets a long reply, streamed slowly (about four seconds): long enough to reload or switch tabs meanwhile. */
export const LIVE_PROMPT = 'Count slowly to sixty';

export const LIVE_REPLY = Array.from({ length: 60 }, (_, index) => String(index + 1)).join(' ');

/** A prompt starting with this gets a reply naming how many times it was asked: a regeneration gets a new one. */
export const COUNTED_PROMPT_PREFIX = 'Count my asks: ';

export const countedReply = (prompt: string, times: number) =>
  `Ask number ${times} of ${prompt.slice(COUNTED_PROMPT_PREFIX.length)}.`;

/** A prompt starting with this fails the first time it is asked (a provider outage), then gets `recoveredReply`. */
export const FAIL_ONCE_PROMPT_PREFIX = 'Fail once: ';

export const recoveredReply = (prompt: string) =>
  `Recovered ${prompt.slice(FAIL_ONCE_PROMPT_PREFIX.length)}.`;

// How many times each counted or fail-once prompt was asked, across this test process.
const asked = new Map<string, number>();
const askedAgain = (prompt: string) => {
  const times = (asked.get(prompt) ?? 0) + 1;
  asked.set(prompt, times);
  return times;
};

/**
 * A prompt starting with this gets one `run_command` call of the rest of it (it waits for approval
 * when the server asks for one), then `approvalAnswer` of what the call returned.
 */
export const APPROVAL_PROMPT_PREFIX = 'Run with approval: ';

const APPROVAL_CALL_ID = 'call-approval';

/** The answer after the approval prompt's call: it says whether the command ran, and what the model read. */
export const approvalAnswer = (toolText: string) =>
  toolText.startsWith('The user did not approve') ? `Not run. I read: ${toolText}` : `Ran it: ${toolText}`;

/** The reply to a message with attachments: their names, in order. */
export const attachmentsReply = (names: readonly string[]) => `Received ${names.join(', ')}.`;

/**
 * The mock model: a message with attachments gets `attachmentsReply`; a plain prompt gets its plain reply; an
 * approval prompt its `run_command` call, then `approvalAnswer`; a Markdown prompt its Markdown, slowly; the edit prompt gets two tool calls (an edit with a diff, a command with
 * output), then a reply streamed in small, slow chunks; the slow prompt gets an answer only after
 * a minute (it is aborted long before).
 */
export function browserModelTurn(request: ModelRequest): ScriptTurn {
  const last = request.messages.at(-1);
  if (last?.role === 'tool' && last.tool_call_id === APPROVAL_CALL_ID)
    return { text: approvalAnswer(typeof last.content === 'string' ? last.content : '') };
  if (last?.role === 'tool') return { text: BROWSER_SCRIPT.finalReply, chunkSize: 5, chunkDelayMs: 60 };
  if (Array.isArray(last?.content)) {
    const names = last.content.flatMap((part) =>
      'fileName' in part && typeof part.fileName === 'string' ? [part.fileName] : [],
    );
    return { text: attachmentsReply(names) };
  }
  const prompt = typeof last?.content === 'string' ? last.content : '';
  if (prompt.startsWith(PLAIN_PROMPT_PREFIX)) return { text: plainReply(prompt) };
  if (prompt.startsWith(MARKDOWN_PROMPT_PREFIX))
    return { text: markdownReply(prompt), chunkSize: 7, chunkDelayMs: 25 };
  if (prompt.startsWith(COUNTED_PROMPT_PREFIX)) return { text: countedReply(prompt, askedAgain(prompt)) };
  if (prompt.startsWith(FAIL_ONCE_PROMPT_PREFIX)) {
    return askedAgain(prompt) === 1 ? { fault: { status: 503 } } : { text: recoveredReply(prompt) };
  }
  if (prompt.startsWith(APPROVAL_PROMPT_PREFIX)) {
    const command = prompt.slice(APPROVAL_PROMPT_PREFIX.length);
    return { toolCalls: [{ id: APPROVAL_CALL_ID, name: 'run_command', arguments: { command } }] };
  }
  if (prompt === LIVE_PROMPT) return { text: LIVE_REPLY, chunkSize: 4, chunkDelayMs: 90 };
  if (prompt === BROWSER_SCRIPT.slowPrompt) return { text: 'This reply comes too late.', delayMs: 60_000 };
  return {
    text: BROWSER_SCRIPT.toolIntro,
    chunkSize: 6,
    chunkDelayMs: 20,
    toolCalls: [
      {
        id: 'call-edit',
        name: 'edit_file',
        arguments: { path: 'notes.txt', old_string: 'hello world', new_string: 'hello web' },
      },
      { id: 'call-check', name: 'run_command', arguments: { command: BROWSER_SCRIPT.checkCommand } },
    ],
  };
}
