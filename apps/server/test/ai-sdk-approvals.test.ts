// Approvals through the AI SDK's own chat class (what `useChat` runs): the waiting call is an
// `approval-requested` tool part, `addToolApprovalResponse` decides it once, and
// `sendAutomaticallyWhen` sends the answered message back, on which the server goes on.
import type { ScriptTurn } from '@cairn/testing';
import { lastAssistantMessageIsCompleteWithApprovalResponses, type UIMessage } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { Chat, transportFor } from './support/ai-sdk-chat.js';
import { deployTool } from './support/deploy-tool.js';
import { jsonBody } from './support/json-body.js';
import { startTestServer, type TestServer, waitFor } from './support/start-test-server.js';

const TOKEN = 'ai-sdk-approvals-token-0123456789';
const OTHER_TOKEN = 'ai-sdk-approvals-other-caller-0123';

let server: TestServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

function deployServer(turns: ScriptTurn[], effects: string[]) {
  return startTestServer({ turns, tools: [deployTool(effects)], apiToken: TOKEN });
}

const chatOn = (app: TestServer, id: string, token = TOKEN) =>
  new Chat(id, transportFor(app, token), {
    sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
  });

const toolParts = (message: UIMessage | undefined) =>
  (message?.parts ?? []).filter((part) => part.type === 'dynamic-tool');

/** The approval id of the chat's waiting call (the stored request's id). */
function waitingApproval(chat: Chat): string {
  const [part] = toolParts(chat.messages.at(-1));
  expect(part).toMatchObject({ state: 'approval-requested', toolName: 'deploy' });
  return (part as { approval: { id: string } }).approval.id;
}

/**
 * A server whose model calls `deploy` to `target` (with `text` before the call), then answers `reply`,
 * and a chat that asked it: its call waits for approval.
 */
async function waitingChat(id: string, target: 'staging' | 'production', reply: ScriptTurn, text?: string) {
  const effects: string[] = [];
  const app = await deployServer(
    [
      {
        ...(text === undefined ? {} : { text }),
        toolCalls: [{ id: 'c1', name: 'deploy', arguments: { target } }],
      },
      reply,
    ],
    effects,
  );
  server = app;
  const chat = chatOn(app, id);
  await chat.sendMessage({ text: `Deploy to ${target}` });
  return { app, chat, effects, approvalId: waitingApproval(chat) };
}

/** `message` with its deploy call answered as `addToolApprovalResponse` leaves it. */
const answeredMessage = (message: UIMessage | undefined, approvalId: string, approved: boolean) => ({
  ...message,
  parts: message?.parts.map((part) =>
    part.type === 'dynamic-tool'
      ? { ...part, state: 'approval-responded', approval: { id: approvalId, approved } }
      : part,
  ),
});

describe('approvals through the AI SDK chat class', () => {
  it('asks, is approved once with addToolApprovalResponse, runs once and answers in the same message', async () => {
    const { app, chat, effects, approvalId } = await waitingChat(
      'ship',
      'production',
      { text: 'Deployed to production.' },
      'Deploying.',
    );
    expect(chat.status).toBe('ready');
    expect(effects).toEqual([]);
    // The id is the stored request's: the server's own API lists it, pending.
    const listed = await jsonBody<{ approvals: { id: string; status: string }[] }>(
      await app.request('/v1/conversations/ship/approvals'),
    );
    expect(listed.approvals).toEqual([expect.objectContaining({ id: approvalId, status: 'pending' })]);

    await chat.addToolApprovalResponse({ id: approvalId, approved: true });
    await waitFor(
      () => chat.status === 'ready' && toolParts(chat.messages.at(-1))[0]?.state === 'output-available',
    );
    expect(chat.error).toBeUndefined();
    expect(effects).toEqual(['production']);
    // One assistant message, continued: the call's output, then the model's answer.
    expect(chat.messages.map((message) => message.role)).toEqual(['user', 'assistant']);
    const answer = chat.messages[1];
    expect(toolParts(answer)).toMatchObject([
      {
        toolCallId: 'c1',
        state: 'output-available',
        output: 'deployed to production',
        approval: { id: approvalId, approved: true },
      },
    ]);
    expect(answer?.parts.at(-1)).toMatchObject({ type: 'text', text: 'Deployed to production.' });

    // The decision is stored once, by this caller; a second page answering the same request is refused.
    const decided = await jsonBody<{
      approvals: { status: string; decision: { outcome: string; decidedBy: string } }[];
    }>(await app.request('/v1/conversations/ship/approvals'));
    expect(decided.approvals).toMatchObject([
      { status: 'decided', decision: { outcome: 'approve', decidedBy: expect.stringMatching(/^caller:/) } },
    ]);
    const late = await app.post('/v1/chat', {
      id: 'ship',
      trigger: 'submit-message',
      messages: [answeredMessage(answer, approvalId, false)],
    });
    expect(late.status).toBe(409);
    expect(await jsonBody(late)).toMatchObject({ error: { code: 'APPROVAL_ALREADY_DECIDED' } });
    expect(effects).toEqual(['production']);
  });

  it('a denial with a reason: the part ends output-denied, the tool never runs, the model reads the reason', async () => {
    const { app, chat, effects, approvalId } = await waitingChat('deny', 'production', {
      text: 'Understood, not deploying.',
    });
    await chat.addToolApprovalResponse({ id: approvalId, approved: false, reason: 'Friday freeze' });
    await waitFor(
      () => chat.status === 'ready' && toolParts(chat.messages.at(-1))[0]?.state === 'output-denied',
    );
    expect(chat.error).toBeUndefined();
    expect(effects).toEqual([]);
    expect(chat.messages.at(-1)?.parts.at(-1)).toMatchObject({ text: 'Understood, not deploying.' });
    const stored = await app.store.load('deny');
    const result = stored.find((message) => message.role === 'tool');
    expect(String(result?.content)).toMatch(/Friday freeze/);
  });

  it('refuses an answer without the token, and a retried answer decides and runs nothing more', async () => {
    const { app, chat, effects, approvalId } = await waitingChat('who', 'staging', {
      text: 'Deployed to staging.',
    });
    const answered = (approved: boolean) => ({
      id: 'who',
      trigger: 'submit-message',
      messages: [answeredMessage(chat.messages.at(-1), approvalId, approved)],
    });
    const stranger = await fetch(`${app.baseURL}/v1/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${OTHER_TOKEN}` },
      body: JSON.stringify(answered(true)),
    });
    expect(stranger.status).toBe(401);
    expect(effects).toEqual([]);

    const first = await app.post('/v1/chat', answered(true));
    expect(first.status).toBe(200);
    await first.text();
    // The same answer again (a retried request): nothing new is decided or run.
    const retried = await app.post('/v1/chat', answered(true));
    expect(retried.status).toBe(200);
    await retried.text();
    expect(effects).toEqual(['staging']);
    const log = await app.store.load('who');
    expect(log.filter((message) => message.approval?.kind === 'decision')).toHaveLength(1);
  });

  it('refuses an assistant message with no answered approval', async () => {
    server = await deployServer([], []);
    const response = await server.post('/v1/chat', {
      id: 'none',
      trigger: 'submit-message',
      messages: [
        {
          id: 'a',
          role: 'assistant',
          parts: [
            {
              type: 'dynamic-tool',
              toolName: 'deploy',
              toolCallId: 'c1',
              state: 'approval-requested',
              input: {},
              approval: { id: 'x.a0' },
            },
          ],
        },
      ],
    });
    expect(response.status).toBe(400);
    expect(await jsonBody(response)).toMatchObject({ error: { code: 'INVALID_ARGUMENT' } });
  });

  it('a page reloaded while the approved call’s answer streams resumes it with the default transport (a replay) and rebuilds the call', async () => {
    const { app, chat, effects, approvalId } = await waitingChat('reload', 'staging', {
      text: 'Deployed to staging, all checks green.',
      chunkSize: 2,
      chunkDelayMs: 40,
    });
    // What the page holds once it answered: the message it is reloaded with.
    const answered = [
      ...chat.messages.slice(0, -1),
      answeredMessage(chat.messages.at(-1), approvalId, true) as UIMessage,
    ];
    const approving = chat.addToolApprovalResponse({ id: approvalId, approved: true });
    await waitFor(() => effects.length === 1);

    const reloaded = new Chat('reload', transportFor(app, TOKEN), { messages: answered });
    await reloaded.resumeStream();
    await approving;
    await waitFor(() => chat.status === 'ready');
    expect(reloaded.error).toBeUndefined();
    expect(reloaded.messages.map((message) => message.role)).toEqual(['user', 'assistant']);
    const rebuilt = reloaded.messages.at(-1);
    expect(toolParts(rebuilt)).toMatchObject([
      {
        toolCallId: 'c1',
        state: 'output-available',
        output: 'deployed to staging',
        approval: { id: approvalId },
      },
    ]);
    expect(rebuilt?.parts.at(-1)).toMatchObject({
      type: 'text',
      text: 'Deployed to staging, all checks green.',
    });
    expect(toolParts(chat.messages.at(-1))).toEqual(toolParts(rebuilt));
    expect(effects).toEqual(['staging']);
  });
});
