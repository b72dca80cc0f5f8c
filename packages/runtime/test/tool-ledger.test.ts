import { readToolLedger } from '@cairn/core';
import { createToolHost } from '@cairn/loop';
import { ScriptedModel } from '@cairn/testing';
import { describe, expect, it } from 'vitest';
import { createAgentRuntime } from '../src/index.js';
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
    // An idempotent call needs no intent: found without a result, it is simply run again.
    expect(page?.intents).toEqual([]);
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
});
