import { defineTool } from '@cairn/loop';
import { createAgentRuntime } from '@cairn/runtime';
import { createMemoryConversationStore } from '@cairn/storage';
import { ScriptedModel } from '@cairn/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { plainColors } from '../render/test-support.js';
import type { Approver, ApproverAnswer } from '../session/approver.js';
import { decidePendingApprovals } from './decide-pending.js';

const deployTool = (ran: string[]) =>
  defineTool({
    name: 'deploy',
    description: 'Deploys',
    category: 'shell',
    input: z.object({ target: z.string() }),
    needsApproval: true,
    execute: ({ target }) => {
      ran.push(target);
      return `deployed ${target}`;
    },
  });

/** A conversation whose deploy call waits for a decision asked of `askedOf`. */
async function waitingConversation(askedOf = 'local') {
  const ran: string[] = [];
  const store = createMemoryConversationStore();
  const runtime = createAgentRuntime({
    store,
    model: new ScriptedModel({
      turns: [
        { toolCalls: [{ id: 'c1', name: 'deploy', arguments: { target: 'prod' } }] },
        { text: 'Deployed.' },
      ],
    }),
    tools: [deployTool(ran)],
    settings: { compression: false, approve: () => 'pending', approvals: { askedOf } },
  });
  const { waiting } = await runtime.chat({ conversationId: 'c', userInput: 'Ship it' });
  expect(waiting).toHaveLength(1);
  const said: string[] = [];
  const session = (answer: (approvalId: string) => Promise<ApproverAnswer>) => {
    const asked: string[] = [];
    const approver: Approver = {
      approve: async (request) => {
        asked.push(request.toolName);
        return answer(waiting?.[0]?.id as string);
      },
      setPrompt: () => {},
    };
    const decided = decidePendingApprovals(
      { runtime, approver, store },
      'c',
      (line) => said.push(line),
      plainColors,
    );
    return { decided, asked };
  };
  return { runtime, store, ran, said, session };
}

describe('decidePendingApprovals', () => {
  it('asks about each waiting request and stores the answer as its decision, by local', async () => {
    const { runtime, ran, session } = await waitingConversation();
    const { decided, asked } = session(async () => true);
    await expect(decided).resolves.toEqual({ decided: 1, left: 0 });
    expect(asked).toEqual(['deploy']);
    const [view] = await runtime.approvals.list('c');
    expect(view?.decision).toMatchObject({ outcome: 'approve', decidedBy: 'local' });
    // Deciding runs nothing: the resume does.
    expect(ran).toEqual([]);
    expect((await runtime.resume({ conversationId: 'c' })).text).toBe('Deployed.');
    expect(ran).toEqual(['prod']);
  });

  it('says who decided first when someone did meanwhile, and leaves unanswered ones pending', async () => {
    const raced = await waitingConversation();
    const { decided } = raced.session(async (approvalId) => {
      // Another process decides while the question is asked here.
      await raced.runtime.approvals.decide({
        conversationId: 'c',
        approvalId,
        decision: 'deny',
        decidedBy: 'local',
      });
      return true;
    });
    await expect(decided).resolves.toEqual({ decided: 0, left: 0 });
    expect(raced.said).toEqual([
      expect.stringMatching(/^deploy \{"target":"prod"\}: already decided by local \(deny at /),
    ]);

    const unanswered = await waitingConversation();
    await expect(unanswered.session(async () => 'pending').decided).resolves.toEqual({ decided: 0, left: 1 });
    expect((await unanswered.runtime.approvals.list('c'))[0]?.status).toBe('pending');
  });

  it('does not ask about a request whose call was answered meanwhile (a cancelled turn)', async () => {
    const { store, session } = await waitingConversation();
    const call = (await store.load('c')).find((message) => message.tool_calls !== undefined);
    const interrupted = { role: 'tool' as const, content: 'Interrupted', isError: true, interrupted: true };
    await store.append('c', [
      {
        id: 'r',
        createdAt: new Date().toISOString(),
        tool_call_id: call?.tool_calls?.[0]?.id as string,
        ...interrupted,
      },
    ]);
    const { decided, asked } = session(async () => true);
    await expect(decided).resolves.toEqual({ decided: 0, left: 0 });
    expect(asked).toEqual([]);
  });

  it("does not ask about a request that is someone else's to decide", async () => {
    const { said, session } = await waitingConversation('caller:bob');
    const { decided, asked } = session(async () => true);
    await expect(decided).resolves.toEqual({ decided: 0, left: 1 });
    expect(asked).toEqual([]);
    expect(said).toEqual(['deploy {"target":"prod"} waits for caller:bob to decide']);
  });
});
