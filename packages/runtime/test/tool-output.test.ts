import { contentText, fullOutputMarker, type ModelMessage, TOOL_OUTPUT_PREVIEW_LENGTH } from '@cairn/core';
import { createToolHost, defineTool } from '@cairn/loop';
import { readFullToolOutput } from '@cairn/storage';
import { ScriptedModel } from '@cairn/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgentRuntime, type RuntimeSettings } from '../src/index.js';
import { STORE_BACKENDS, useStoreBackend } from './stores.js';

// Issue V item 5: the model reads a tool output in the turn that produced it exactly as every later
// turn, rebuilt from the store, sends it — a 1.5 MB output offloaded by the store is not sent whole.

const logTool = (output: string) =>
  defineTool({
    name: 'read_log',
    description: 'Returns the build log',
    category: 'read',
    input: z.object({}),
    execute: () => output,
  });

const lastTool = (messages: readonly ModelMessage[] | undefined) =>
  messages?.findLast((message) => message.role === 'tool');

describe.each(STORE_BACKENDS)('runtime tool outputs on the $name store', (backend) => {
  const { open } = useStoreBackend(backend);

  async function twoTurns(output: string, settings: RuntimeSettings = {}) {
    const store = open();
    const model = new ScriptedModel({
      turns: [
        { toolCalls: [{ id: 'call-1', name: 'read_log', arguments: {} }] },
        { text: 'The build passed.' },
        { text: 'Nothing failed.' },
      ],
    });
    const runtime = createAgentRuntime({
      store,
      model,
      tools: createToolHost([logTool(output)]),
      settings: { compression: false, ...settings },
    });
    const first = await runtime.chat({ userInput: 'Did the build pass?', mode: 'agent' });
    expect(first.success).toBe(true);
    const second = await runtime.chat({
      conversationId: first.conversationId,
      userInput: 'Anything failed?',
      mode: 'agent',
    });
    expect(second.success).toBe(true);
    const [, sameTurn, nextTurn] = model.requests.map((request) => request.messages);
    // The request of the same turn is the start of the next turn's, rebuilt from the store.
    expect(nextTurn?.slice(0, sameTurn?.length)).toEqual(sameTurn);
    const log = await store.load(first.conversationId);
    return { store, sameTurn, stored: log.find((message) => message.role === 'tool') };
  }

  it('sends an offloaded 1.5 MB output as its stored preview and reference in the same turn', async () => {
    const output = `BEGIN ${'log line\n'.repeat(170_000)} END`;
    const { store, sameTurn, stored } = await twoTurns(output);
    expect(JSON.stringify(sameTurn).length).toBeLessThan(5_000);
    const ref = stored?.fullOutputPath as string;
    expect(lastTool(sameTurn)?.content).toBe(
      output.slice(0, TOOL_OUTPUT_PREVIEW_LENGTH) + fullOutputMarker(ref),
    );
    expect(await readFullToolOutput(store, stored as never)).toBe(output);
  });

  it('bounds an output the store kept inline by maxToolResultChars, in this turn and the next alike', async () => {
    const output = `BEGIN ${'x'.repeat(20_000)} END`;
    const { sameTurn, stored } = await twoTurns(output, { maxToolResultChars: 1_000 });
    expect(stored?.content).toBe(output);
    const sent = lastTool(sameTurn)?.content ?? '';
    expect(sent.length).toBeLessThanOrEqual(1_000);
    expect(sent).toContain(`of ${output.length} characters are shown`);
  });

  it('lets the model read on in an offloaded output with read_tool_output, only its own conversation’s', async () => {
    const store = open();
    const output = `BEGIN ${'0123456789'.repeat(20_000)} END`;
    let ref = '';
    const model = new ScriptedModel({
      turns: (request, index) => {
        const sent = contentText(lastTool(request.messages)?.content);
        if (index === 0) return { toolCalls: [{ id: 'call-1', name: 'read_log', arguments: {} }] };
        if (index === 1) {
          ref = /\[Full output: ([^\]]+)\]/.exec(sent)?.[1] ?? '';
          const args = { ref, offset: 100_000, length: 30 };
          return { toolCalls: [{ id: 'call-2', name: 'read_tool_output', arguments: args }] };
        }
        if (index === 2) {
          const other = { ref: 'tool-results/another-conversation/x.txt' };
          return { toolCalls: [{ id: 'call-3', name: 'read_tool_output', arguments: other }] };
        }
        return { text: 'Read it.' };
      },
    });
    const runtime = createAgentRuntime({
      store,
      model,
      tools: createToolHost([logTool(output)]),
      settings: { compression: false },
    });
    const result = await runtime.chat({ userInput: 'Read the log past its preview', mode: 'agent' });
    expect(result.success).toBe(true);
    expect(model.requests[0]?.tools?.map((tool) => tool.name)).toContain('read_tool_output');
    const [readPart, refused] = (await store.load(result.conversationId))
      .filter((message) => message.role === 'tool')
      .slice(1);
    expect(readPart?.content).toBe(
      `${output.slice(100_000, 100_030)}\n\n[Characters 100000-100030 of ${output.length}; the rest: read_tool_output with offset 100030]`,
    );
    expect(refused).toMatchObject({ isError: true });
    expect(refused?.content).toContain('is not an output of this conversation');
  });

  it('gives no read_tool_output when the runtime is told not to', async () => {
    const model = new ScriptedModel({ turns: [{ text: 'Hi.' }] });
    const runtime = createAgentRuntime({ store: open(), model, settings: { readToolOutput: false } });
    await runtime.chat({ userInput: 'Hello', mode: 'agent' });
    expect(model.requests[0]?.tools?.map((tool) => tool.name) ?? []).not.toContain('read_tool_output');
  });
});
