import { readToolLedger } from '@cairn/core';
import { createToolHost, defineTool } from '@cairn/loop';
import { createGate, ScriptedModel } from '@cairn/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgentRuntime, MAX_IDEMPOTENT_RERUNS } from '../src/index.js';
import { type Effects, hangingTools, untilEffects } from './ledger-tools.js';
import { STORE_BACKENDS, useStoreBackend } from './stores.js';

describe.each(STORE_BACKENDS)('the tool ledger on the $name store', (backend) => {
  const { open } = useStoreBackend(backend);

  it('after a crash mid-call, runs an idempotent call again and never a non-idempotent one', async () => {
    const effects: Effects = { lines: [] };
    const hanging = hangingTools(effects);
    const tools = createToolHost(hanging.tools);
    const model = new ScriptedModel({
      turns: [
        {
          toolCalls: [
            { id: 'e1', name: 'send_email', arguments: {} },
            { id: 'f1', name: 'fetch_page', arguments: {} },
          ],
        },
        { text: 'The email may not have gone out; the page is fetched.' },
      ],
    });
    const settings = { compression: false as const };
    // Process A runs both calls and "dies" while they run: it is abandoned, never heard from again.
    const stopA = new AbortController();
    const processA = createAgentRuntime({ store: open(), model, tools, settings }).chat({
      conversationId: 'c',
      userInput: 'Email Bob and fetch the page',
      signal: stopA.signal,
    });
    await untilEffects(effects, ['fetch_page', 'send_email'], processA);

    // Process B continues the conversation from the store.
    const resumed = await createAgentRuntime({ store: open(), model, tools, settings }).resume({
      conversationId: 'c',
    });
    expect(resumed).toMatchObject({
      success: true,
      text: 'The email may not have gone out; the page is fetched.',
    });
    expect(effects.lines.filter((line) => line === 'send_email')).toHaveLength(1);
    expect(effects.lines.filter((line) => line === 'fetch_page')).toHaveLength(2);

    const log = await open().load('c');
    const ledger = readToolLedger(log);
    const [email, page] = ledger.calls;
    // The intent was stored before the email tool started; it has no second attempt.
    expect(email?.intents.map((intent) => intent.attempt)).toEqual([1]);
    expect(email?.result).toMatchObject({ interrupted: true, isError: true });
    expect(email?.result?.content).toMatch(/interrupted while it ran .* not run again/);
    // An idempotent call's first run stores no intent: found without a result, it is run again,
    // and that run is counted (so one that stops its process every time is not run without end).
    expect(page?.intents.map((intent) => [intent.attempt, intent.idempotent])).toEqual([[2, true]]);
    expect(page?.result).toMatchObject({ content: 'fetch_page done', isError: false });
    // Nothing dangles: the model was sent both calls answered.
    expect(ledger.calls.every((call) => call.result !== undefined)).toBe(true);
    const request = model.requests[1]?.messages ?? [];
    expect(request.filter((message) => message.role === 'tool')).toHaveLength(2);

    // Process A's tools are let go: what it would write now changes none of the above.
    stopA.abort();
    hanging.release.open();
    await processA;
    expect(effects.lines.filter((line) => line === 'send_email')).toHaveLength(1);
  });

  it(`runs an idempotent call that stops its process every time at most ${MAX_IDEMPOTENT_RERUNS} times again, then answers it interrupted`, async () => {
    const runs: string[] = [];
    const released = createGate();
    // Every run "kills its process": it never returns (the test abandons the runtime running it).
    const crashy = defineTool({
      name: 'read_huge',
      description: 'Reads a file too big for the process',
      category: 'read',
      idempotent: true,
      input: z.object({}),
      execute: async () => {
        runs.push('read_huge');
        await released.promise;
        return 'read';
      },
    });
    const tools = createToolHost([crashy]);
    const model = new ScriptedModel({
      turns: [
        { toolCalls: [{ id: 'h1', name: 'read_huge', arguments: {} }] },
        { text: 'That file cannot be read here.' },
      ],
    });
    const settings = { compression: false as const };
    const abandoned: { stop: AbortController; turn: Promise<unknown> }[] = [];
    const abandon = (turn: (signal: AbortSignal) => Promise<unknown>) => {
      const stop = new AbortController();
      const running = turn(stop.signal);
      abandoned.push({ stop, turn: running });
      return running;
    };
    const runtime = () => createAgentRuntime({ store: open(), model, tools, settings });

    const first = abandon((signal) => runtime().chat({ conversationId: 'h', userInput: 'Read it', signal }));
    await untilEffects({ lines: runs }, ['read_huge'], first);
    for (let rerun = 1; rerun <= MAX_IDEMPOTENT_RERUNS; rerun++) {
      const resumed = abandon((signal) => runtime().resume({ conversationId: 'h', signal }));
      await untilEffects({ lines: runs }, Array(rerun + 1).fill('read_huge'), resumed);
    }
    // The next process runs it no more: the call is answered, and the model goes on.
    const last = await runtime().resume({ conversationId: 'h' });
    expect(last).toMatchObject({ success: true, text: 'That file cannot be read here.' });
    expect(runs).toHaveLength(1 + MAX_IDEMPOTENT_RERUNS);
    const [call] = readToolLedger(await open().load('h')).calls;
    expect(call?.intents.map((intent) => intent.attempt)).toEqual([2, 3, 4]);
    expect(call?.result).toMatchObject({ interrupted: true, isError: true });
    expect(call?.result?.content).toMatch(/interrupted every time it ran \(4 runs/);

    for (const { stop } of abandoned) stop.abort();
    released.open();
    await Promise.all(abandoned.map(({ turn }) => turn.catch(() => undefined)));
  });
});
