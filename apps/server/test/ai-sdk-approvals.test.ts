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

describe('approvals through the AI SDK chat class', () => {
  it('asks, is approved once with addToolApprovalResponse, runs once and answers in the same message', async () => {
    const effects: string[] = [];
    server = await deployServer(
      [
        {
          text: 'Deploying.',
          toolCalls: [{ id: 'c1', name: 'deploy', arguments: { target: 'production' } }],
        },
        { text: 'Deployed to production.' },
      ],
      effects,
    );
    const chat = chatOn(server, 'ship');
    await chat.sendMessage({ text: 'Ship it' });
    expect(chat.status).toBe('ready');
    const approvalId = waitingApproval(chat);
    expect(effects).toEqual([]);
    // The id is the stored request's: the server's own API lists it, pending.
    const listed = await jsonBody<{ approvals: { id: string; status: string }[] }>(
      await server.request('/v1/conversations/ship/approvals'),
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
    }>(await server.request('/v1/conversations/ship/approvals'));
    expect(decided.approvals).toMatchObject([
      { status: 'decided', decision: { outcome: 'approve', decidedBy: expect.stringMatching(/^caller:/) } },
    ]);
    const late = await server.post('/v1/chat', {
      id: 'ship',
      trigger: 'submit-message',
      messages: [
        {
          ...answer,
          parts: answer?.parts.map((part) =>
            part.type === 'dynamic-tool'
              ? { ...part, state: 'approval-responded', approval: { id: approvalId, approved: false } }
              : part,
          ),
        },
      ],
    });
    expect(late.status).toBe(409);
    expect(await jsonBody(late)).toMatchObject({ error: { code: 'APPROVAL_ALREADY_DECIDED' } });
    expect(effects).toEqual(['production']);
  });

  it('a denial with a reason: the part ends output-denied, the tool never runs, the model reads the reason', async () => {
    const effects: string[] = [];
    server = await deployServer(
      [
        { toolCalls: [{ id: 'c1', name: 'deploy', arguments: { target: 'production' } }] },
        { text: 'Understood, not deploying.' },
      ],
      effects,
    );
    const chat = chatOn(server, 'deny');
    await chat.sendMessage({ text: 'Ship it' });
    const approvalId = waitingApproval(chat);
    await chat.addToolApprovalResponse({ id: approvalId, approved: false, reason: 'Friday freeze' });
    await waitFor(
      () => chat.status === 'ready' && toolParts(chat.messages.at(-1))[0]?.state === 'output-denied',
    );
    expect(chat.error).toBeUndefined();
    expect(effects).toEqual([]);
    expect(chat.messages.at(-1)?.parts.at(-1)).toMatchObject({ text: 'Understood, not deploying.' });
    const stored = await server.store.load('deny');
    const result = stored.find((message) => message.role === 'tool');
    expect(String(result?.content)).toMatch(/Friday freeze/);
  });

  it('refuses an answer without the token, and a retried answer decides and runs nothing more', async () => {
    const effects: string[] = [];
    server = await deployServer(
      [
        { toolCalls: [{ id: 'c1', name: 'deploy', arguments: { target: 'staging' } }] },
        { text: 'Deployed to staging.' },
      ],
      effects,
    );
    const chat = chatOn(server, 'who');
    await chat.sendMessage({ text: 'Stage it' });
    const approvalId = waitingApproval(chat);
    const answered = (approved: boolean) => ({
      id: 'who',
      trigger: 'submit-message',
      messages: [
        {
          ...chat.messages.at(-1),
          parts: chat.messages
            .at(-1)
            ?.parts.map((part) =>
              part.type === 'dynamic-tool'
                ? { ...part, state: 'approval-responded', approval: { id: approvalId, approved } }
                : part,
            ),
        },
      ],
    });
    const stranger = await fetch(`${server.baseURL}/v1/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${OTHER_TOKEN}` },
      body: JSON.stringify(answered(true)),
    });
    expect(stranger.status).toBe(401);
    expect(effects).toEqual([]);

    const first = await server.post('/v1/chat', answered(true));
    expect(first.status).toBe(200);
    await first.text();
    // The same answer again (a retried request): nothing new is decided or run.
    const retried = await server.post('/v1/chat', answered(true));
    expect(retried.status).toBe(200);
    await retried.text();
    expect(effects).toEqual(['staging']);
    const log = await server.store.load('who');
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
    const effects: string[] = [];
    server = await deployServer(
      [
        { toolCalls: [{ id: 'c1', name: 'deploy', arguments: { target: 'staging' } }] },
        { text: 'Deployed to staging, all checks green.', chunkSize: 2, chunkDelayMs: 40 },
      ],
      effects,
    );
    const chat = chatOn(server, 'reload');
    await chat.sendMessage({ text: 'Stage it' });
    const approvalId = waitingApproval(chat);
    // What the page holds once it answered: the message it will be reloaded with.
    const answered = structuredClone(chat.messages);
    const approving = chat.addToolApprovalResponse({ id: approvalId, approved: true });
    await waitFor(() => effects.length === 1);
    (answered.at(-1)?.parts ?? []).forEach((part) => {
      if (part.type === 'dynamic-tool')
        Object.assign(part, { state: 'approval-responded', approval: { id: approvalId, approved: true } });
    });

    const reloaded = new Chat('reload', transportFor(server, TOKEN), { messages: answered });
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
