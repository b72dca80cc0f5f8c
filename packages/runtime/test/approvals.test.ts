import { CairnError, type ConversationMessage, type ConversationStore } from '@cairn/core';
import { createToolHost } from '@cairn/loop';
import { ScriptedModel } from '@cairn/testing';
import { describe, expect, it } from 'vitest';
import { createAgentRuntime, type RuntimeSettings } from '../src/index.js';
import { deployTool, type Effects } from './ledger-tools.js';
import { STORE_BACKENDS, useStoreBackend } from './stores.js';

const deployCall = (target = 'production') => ({
  toolCalls: [{ id: 'c1', name: 'deploy', arguments: { target } }],
});

function runtimeOn(
  store: ConversationStore,
  effects: Effects,
  turns: ScriptedModel,
  settings: RuntimeSettings = {},
  now?: () => Date,
) {
  return createAgentRuntime({
    store,
    model: turns,
    tools: createToolHost([deployTool(effects)]),
    settings: { compression: false, ...settings, ...(now === undefined ? {} : { now }) },
  });
}

// A clock that moves a millisecond each time it is read: the order of stamps is the order of reads.
function tickingClock() {
  let at = Date.now();
  return () => new Date(at++);
}

const kinds = (log: ConversationMessage[]) => log.map((message) => message.partType ?? message.role);

async function codeOf(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    return CairnError.is(error) ? error.code : String(error);
  }
}

describe.each(STORE_BACKENDS)('durable approvals on the $name store', (backend) => {
  const { open } = useStoreBackend(backend);

  // Conversation `c`, whose turn ended with its deploy call waiting for approval.
  async function waitingDeploy() {
    const effects: Effects = { lines: [] };
    const model = new ScriptedModel({ turns: [deployCall()] });
    const { waiting } = await runtimeOn(open(), effects, model).chat({
      conversationId: 'c',
      userInput: 'Ship',
    });
    return { effects, model, approvalId: waiting?.[0]?.id as string };
  }

  it('ends the turn waiting, keeps the request across a restart, runs the call once after one decision', async () => {
    const effects: Effects = { lines: [] };
    const model = new ScriptedModel({ turns: [deployCall(), { text: 'Deployed.' }] });
    const first = await runtimeOn(open(), effects, model).chat({ conversationId: 'c', userInput: 'Ship it' });
    expect(first).toMatchObject({ success: true, finishReason: 'tool_calls', turns: 1 });
    expect(first.waiting).toHaveLength(1);
    const approvalId = first.waiting?.[0]?.id as string;
    expect(effects.lines).toEqual([]);

    // A restart: a new runtime on the store reopened sees the request pending, and nothing ran.
    const restarted = runtimeOn(open(), effects, model, {}, tickingClock());
    const [pending] = await restarted.approvals.list('c');
    expect(pending).toMatchObject({
      id: approvalId,
      status: 'pending',
      request: { toolName: 'deploy', input: { target: 'production' }, askedOf: 'any' },
    });
    const decision = await restarted.approvals.decide({
      conversationId: 'c',
      approvalId,
      decision: 'approve',
      decidedBy: 'caller:alice',
    });
    expect(decision).toMatchObject({ outcome: 'approve', decidedBy: 'caller:alice' });
    // Anyone deciding again, the same person included, is told who decided first.
    await expect(
      restarted.approvals.decide({
        conversationId: 'c',
        approvalId,
        decision: 'deny',
        decidedBy: 'caller:bob',
      }),
    ).rejects.toMatchObject({
      code: 'APPROVAL_ALREADY_DECIDED',
      details: { decision: { decidedBy: 'caller:alice' } },
    });

    const resumed = await restarted.resume({ conversationId: 'c' });
    expect(resumed).toMatchObject({ success: true, text: 'Deployed.' });
    expect(effects.lines).toEqual(['deployed production']);
    // Resumed again: nothing is owed an answer, nothing runs twice, no model is called.
    const again = await runtimeOn(open(), effects, model).resume({ conversationId: 'c' });
    expect(again).toMatchObject({ success: true, turns: 0 });
    expect(effects.lines).toEqual(['deployed production']);
    expect(model.requests).toHaveLength(2);
    const log = await open().load('c');
    expect(kinds(log)).toEqual([
      'user',
      'tool_call',
      'approval_request',
      'approval_decision',
      'tool_intent',
      'tool_result',
      'assistant',
    ]);
    // Stamped in the order they happened: the result after the intent stored before the tool ran.
    const stamps = log.slice(3).map((message) => message.createdAt);
    expect(stamps).toEqual([...stamps].sort());
    expect(new Set(stamps).size).toBe(stamps.length);
    // The model saw the call answered by the real result.
    expect(model.requests[1]?.messages.at(-1)).toMatchObject({
      role: 'tool',
      content: 'deployed to production',
    });
  });

  it('lets exactly one of two runtimes deciding at once win', async () => {
    const { effects, model, approvalId } = await waitingDeploy();
    const deciders = [open(), open(), open()].map((store, index) =>
      runtimeOn(store, effects, model).approvals.decide({
        conversationId: 'c',
        approvalId,
        decision: index === 0 ? 'deny' : 'approve',
        decidedBy: `caller:${index}`,
      }),
    );
    const codes = await Promise.all(deciders.map(codeOf));
    expect(codes.filter((code) => code === undefined)).toHaveLength(1);
    expect(codes.filter((code) => code === 'APPROVAL_ALREADY_DECIDED')).toHaveLength(2);
    const log = await open().load('c');
    expect(log.filter((message) => message.partType === 'approval_decision')).toHaveLength(1);
  });

  it('lets exactly one win when the same caller decides the same way in two processes at the same instant', async () => {
    const { effects, model, approvalId } = await waitingDeploy();
    // Two workers serving one token, their clocks reading the same millisecond: identical decisions.
    const instant = new Date();
    const deciders = [open(), open()].map((store) =>
      runtimeOn(store, effects, model, {}, () => instant).approvals.decide({
        conversationId: 'c',
        approvalId,
        decision: 'approve',
        decidedBy: 'caller:same',
      }),
    );
    const codes = await Promise.all(deciders.map(codeOf));
    expect(codes.sort()).toEqual(['APPROVAL_ALREADY_DECIDED', undefined]);
  });

  it('denies with the reason given, or runs the input a person edited', async () => {
    const effects: Effects = { lines: [] };
    const model = new ScriptedModel({
      turns: [deployCall(), { text: 'Not deploying.' }, deployCall(), { text: 'Staging it is.' }],
    });
    const runtime = runtimeOn(open(), effects, model);
    const denied = await runtime.chat({ conversationId: 'c', userInput: 'Ship' });
    await runtime.approvals.decide({
      conversationId: 'c',
      approvalId: denied.waiting?.[0]?.id as string,
      decision: 'deny',
      reason: 'freeze week',
      decidedBy: 'local',
    });
    await runtime.resume({ conversationId: 'c' });
    expect(model.requests[1]?.messages.at(-1)?.content).toBe(
      'The user did not approve running deploy. Their reason: freeze week',
    );

    const edited = await runtime.chat({ conversationId: 'c', userInput: 'Ship again' });
    const approvalId = edited.waiting?.[0]?.id as string;
    const badEdit = runtime.approvals.decide({
      conversationId: 'c',
      approvalId,
      decision: 'edit',
      input: { target: 'moon' },
      decidedBy: 'local',
    });
    expect(await codeOf(badEdit)).toBe('TOOL_INVALID_INPUT');
    await runtime.approvals.decide({
      conversationId: 'c',
      approvalId,
      decision: 'edit',
      input: { target: 'staging' },
      decidedBy: 'local',
    });
    await runtime.resume({ conversationId: 'c' });
    expect(effects.lines).toEqual(['deployed staging']);
  });

  it('decides an expired request as expired: the call is denied, a late decision refused', async () => {
    let now = Date.parse('2026-11-28T10:00:00Z');
    const effects: Effects = { lines: [] };
    const model = new ScriptedModel({ turns: [deployCall(), { text: 'It expired.' }] });
    const settings = { now: () => new Date(now), approvals: { ttlMs: 60_000 } };
    const runtime = runtimeOn(open(), effects, model, settings);
    const { waiting } = await runtime.chat({ conversationId: 'c', userInput: 'Ship' });
    expect(waiting?.[0]?.request.expiresAt).toBe('2026-11-28T10:01:00.000Z');
    now += 60_000;
    expect((await runtime.approvals.list('c'))[0]?.status).toBe('expired');
    const late = runtime.approvals.decide({
      conversationId: 'c',
      approvalId: waiting?.[0]?.id as string,
      decision: 'approve',
      decidedBy: 'local',
    });
    expect(await codeOf(late)).toBe('APPROVAL_EXPIRED');
    const resumed = await runtime.resume({ conversationId: 'c' });
    expect(resumed.text).toBe('It expired.');
    expect(effects.lines).toEqual([]);
    expect(model.requests[1]?.messages.at(-1)?.content).toMatch(
      /no decision came before the request expired/,
    );
  });

  it('decides a request whose time ran out expired, not superseded, when a new message comes', async () => {
    let now = Date.parse('2026-11-28T10:00:00Z');
    const effects: Effects = { lines: [] };
    const model = new ScriptedModel({ turns: [deployCall(), { text: 'Fine.' }] });
    const runtime = runtimeOn(open(), effects, model, {
      now: () => new Date(now),
      approvals: { ttlMs: 1000 },
    });
    await runtime.chat({ conversationId: 'c', userInput: 'Ship' });
    now += 5000;
    await runtime.chat({ conversationId: 'c', userInput: 'Something else' });
    const [entry] = await runtime.approvals.list('c');
    expect(entry?.decision).toMatchObject({ outcome: 'expired', decidedBy: 'system' });
  });

  it('settles a pending call when a new message comes first: superseded, nothing run, all in one append', async () => {
    const effects: Effects = { lines: [] };
    const model = new ScriptedModel({ turns: [deployCall(), { text: 'OK, not deploying.' }] });
    const runtime = runtimeOn(open(), effects, model);
    const { waiting } = await runtime.chat({ conversationId: 'c', userInput: 'Ship' });
    const next = await runtime.chat({ conversationId: 'c', userInput: 'Never mind' });
    expect(next.text).toBe('OK, not deploying.');
    expect(effects.lines).toEqual([]);
    const [entry] = await runtime.approvals.list('c');
    expect(entry?.decision).toMatchObject({ outcome: 'superseded', decidedBy: 'system' });
    const log = await open().load('c');
    expect(kinds(log).slice(2)).toEqual([
      'approval_request',
      'approval_decision',
      'tool_result',
      'user',
      'assistant',
    ]);
    const decide = runtime.approvals.decide({
      conversationId: 'c',
      approvalId: waiting?.[0]?.id as string,
      decision: 'approve',
      decidedBy: 'local',
    });
    expect(await codeOf(decide)).toBe('APPROVAL_ALREADY_DECIDED');
  });

  it('stores the answer of an approver asked in the process as the decision, and runs at once', async () => {
    const effects: Effects = { lines: [] };
    const model = new ScriptedModel({ turns: [deployCall(), { text: 'Done.' }] });
    const runtime = runtimeOn(open(), effects, model, {
      approve: () => true,
      approvals: { decidedBy: 'local' },
    });
    const result = await runtime.chat({ conversationId: 'c', userInput: 'Ship' });
    expect(result).toMatchObject({ text: 'Done.' });
    expect(result.waiting).toBeUndefined();
    expect(effects.lines).toEqual(['deployed production']);
    const [entry] = await runtime.approvals.list('c');
    expect(entry).toMatchObject({
      request: { askedOf: 'local' },
      decision: { outcome: 'approve', decidedBy: 'local' },
    });
  });

  it('decides a request superseded when its turn is cancelled with the question open', async () => {
    const effects: Effects = { lines: [] };
    const model = new ScriptedModel({ turns: [deployCall()] });
    const stop = new AbortController();
    let asked = false;
    const approve = () => {
      asked = true;
      stop.abort();
      return new Promise<boolean>(() => {});
    };
    const runtime = runtimeOn(open(), effects, model, { approve });
    const result = await runtime.chat({ conversationId: 'c', userInput: 'Ship', signal: stop.signal });
    expect(asked).toBe(true);
    expect(result.finishReason).toBe('aborted');
    // Decided before the turn returned: no request is left pending with no one asking it.
    const [entry] = await runtime.approvals.list('c');
    expect(entry?.decision).toMatchObject({
      outcome: 'superseded',
      decidedBy: 'system',
      reason: 'the turn was cancelled',
    });
    expect(effects.lines).toEqual([]);
  });

  it('refuses a decision from someone the request is not asked of', async () => {
    const effects: Effects = { lines: [] };
    const model = new ScriptedModel({ turns: [deployCall(), deployCall()] });
    const runtime = runtimeOn(open(), effects, model, { approve: () => 'pending' });
    const { waiting } = await runtime.chat({ conversationId: 'c', userInput: 'Ship' });
    const decide = runtime.approvals.decide({
      conversationId: 'c',
      approvalId: waiting?.[0]?.id as string,
      decision: 'approve',
      decidedBy: 'caller:mallory',
    });
    expect(await codeOf(decide)).toBe('APPROVAL_FORBIDDEN');
    // A turn may name its own decider (a server: the caller who sent the message).
    const asked = await runtime.chat({ conversationId: 'd', userInput: 'Ship', askedOf: 'caller:alice' });
    expect(asked.waiting?.[0]?.request.askedOf).toBe('caller:alice');
    expect(
      await codeOf(
        runtime.approvals.decide({
          conversationId: 'c',
          approvalId: 'nope',
          decision: 'approve',
          decidedBy: 'local',
        }),
      ),
    ).toBe('APPROVAL_NOT_FOUND');
    expect(
      await codeOf(
        runtime.approvals.decide({
          conversationId: '../c',
          approvalId: 'x',
          decision: 'approve',
          decidedBy: 'local',
        }),
      ),
    ).toBe('INVALID_ID');
  });
});
