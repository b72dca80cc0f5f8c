import type { WorkflowPackage } from '@cairn/runtime';
import type { ScriptTurn } from '@cairn/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { deployTool } from './support/deploy-tool.js';
import { jsonBody } from './support/json-body.js';
import { SseReader } from './support/read-sse.js';
import { startTestServer, type TestServer } from './support/start-test-server.js';

let server: TestServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

const TOKEN = 'approvals-test-token-0123456789';

function deployServer(
  turns: ScriptTurn[],
  effects: string[],
  options: { workflows?: WorkflowPackage[] } = {},
) {
  return startTestServer({ turns, tools: [deployTool(effects)], apiToken: TOKEN, ...options });
}

const deployCall = { toolCalls: [{ id: 'c1', name: 'deploy', arguments: { target: 'production' } }] };

interface Approval {
  id: string;
  status: string;
  request: { toolName: string; askedOf: string };
  decision?: { outcome: string; decidedBy: string };
}

describe('approvals over the API', () => {
  it('ends a turn waiting, lists the request, decides it once and continues the turn', async () => {
    const effects: string[] = [];
    server = await deployServer([deployCall, { text: 'Deployed.' }], effects);
    const first = await jsonBody<{ success: boolean; waiting: Approval[] }>(
      await server.postMessage('c1', 'Ship it'),
    );
    expect(first.success).toBe(true);
    expect(first.waiting).toHaveLength(1);
    const approvalId = first.waiting[0]?.id as string;
    // Asked of the caller who sent the message: its token's hash, never the token.
    const askedOf = first.waiting[0]?.request.askedOf as string;
    expect(askedOf).toMatch(/^caller:[A-Za-z0-9_-]{16}$/);
    expect(JSON.stringify(first)).not.toContain(TOKEN);

    const listed = await jsonBody<{ approvals: Approval[] }>(
      await server.request('/v1/conversations/c1/approvals'),
    );
    expect(listed.approvals).toMatchObject([
      { id: approvalId, status: 'pending', request: { toolName: 'deploy' } },
    ]);
    expect(effects).toEqual([]);

    const decided = await server.post(`/v1/conversations/c1/approvals/${approvalId}`, {
      decision: 'approve',
    });
    expect(decided.status).toBe(200);
    expect(await jsonBody(decided)).toMatchObject({ success: true, message: { content: 'Deployed.' } });
    expect(effects).toEqual(['production']);

    const again = await server.post(`/v1/conversations/c1/approvals/${approvalId}`, { decision: 'deny' });
    expect(again.status).toBe(409);
    expect(await jsonBody(again)).toMatchObject({
      error: { code: 'APPROVAL_ALREADY_DECIDED', message: expect.stringContaining(`approve by ${askedOf}`) },
    });
    expect(effects).toEqual(['production']);
    const after = await jsonBody<{ approvals: Approval[] }>(
      await server.request('/v1/conversations/c1/approvals'),
    );
    expect(after.approvals[0]).toMatchObject({
      status: 'decided',
      decision: { outcome: 'approve', decidedBy: askedOf },
    });
  });

  it('answers a decision as an event stream, done saying the turn ended; 404 and 400 for bad requests', async () => {
    const effects: string[] = [];
    server = await deployServer([deployCall, { text: 'Staging done.' }], effects);
    const first = await jsonBody<{ waiting: Approval[] }>(await server.postMessage('c1', 'Ship'));
    const approvalId = first.waiting[0]?.id as string;
    const bad = await server.post(`/v1/conversations/c1/approvals/${approvalId}`, {
      decision: 'edit',
      input: { target: 'moon' },
    });
    expect(bad.status).toBe(400);
    expect(await jsonBody(bad)).toMatchObject({ error: { code: 'TOOL_INVALID_INPUT' } });
    const unknown = await server.post('/v1/conversations/c1/approvals/nope', { decision: 'approve' });
    expect(unknown.status).toBe(404);

    const streamed = await server.post(
      `/v1/conversations/c1/approvals/${approvalId}`,
      { decision: 'edit', input: { target: 'staging' } },
      'text/event-stream',
    );
    expect(streamed.headers.get('content-type')).toMatch(/text\/event-stream/);
    const events = await new SseReader(streamed).readUntil((event) => event.event === 'done');
    expect(events.at(-1)).toMatchObject({ event: 'done' });
    expect(JSON.parse(events.at(-1)?.data ?? '{}')).toEqual({ success: true });
    expect(effects).toEqual(['staging']);
  });

  it('shows the waiting call in the display view, and /resume with nothing owed calls no model', async () => {
    const effects: string[] = [];
    server = await deployServer([deployCall], effects);
    await server.postMessage('c1', 'Ship');
    const display = await jsonBody<{
      messages: { partType?: string; toolExecution?: { status?: string } }[];
    }>(await server.request('/v1/conversations/c1/messages?view=display'));
    expect(display.messages.map((message) => message.toolExecution?.status ?? message.partType)).toEqual([
      undefined,
      'awaiting_approval',
    ]);
    // Still waiting: resuming runs nothing and says what waits.
    const resumed = await jsonBody<{ waiting?: Approval[] }>(
      await server.post('/v1/conversations/c1/resume'),
    );
    expect(resumed.waiting).toHaveLength(1);
    expect(effects).toEqual([]);
  });

  it("continues a workflow run once its approval is decided: the run's step goes on", async () => {
    const effects: string[] = [];
    const workflows: WorkflowPackage[] = [
      {
        name: 'ops',
        workflows: [
          {
            id: 'ship',
            name: 'Ship',
            entry: 'go',
            nodes: [{ id: 'go', name: 'Go', instruction: 'Deploy.' }],
            edges: [],
          },
        ],
      },
    ];
    server = await deployServer([deployCall, { text: 'Deployed in the run.' }], effects, { workflows });
    const started = await jsonBody<{ waiting: Approval[]; success: boolean }>(
      await server.post('/v1/runs', { workflow: 'ops/ship', runId: 'r1' }),
    );
    expect(started.success).toBe(true);
    const approvalId = started.waiting[0]?.id as string;
    const decided = await server.post(`/v1/conversations/run-r1/approvals/${approvalId}`, {
      decision: 'approve',
    });
    expect(decided.status).toBe(200);
    // Answered as a run's turn: the run's own result, its state included.
    expect(await jsonBody(decided)).toMatchObject({
      runId: 'r1',
      success: true,
      message: { content: 'Deployed in the run.' },
      run: { status: 'active' },
    });
    expect(effects).toEqual(['production']);
  });
});
