import { toDisplayMessages } from '@cairn/message-processor';
import { createAgentRuntime } from '@cairn/runtime';
import { createMemoryConversationStore } from '@cairn/storage';
import { ScriptedModel } from '@cairn/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { connectMcpServers, type McpClient } from '../src/index.js';
import { everything } from './mcp-servers.js';

let client: McpClient | undefined;
afterEach(async () => {
  await client?.close();
});

describe('an MCP tool in a runtime turn', () => {
  it('the model calls server-everything, the result is stored and merged into a tool_execution', async () => {
    client = await connectMcpServers(everything);
    const model = new ScriptedModel({
      turns: [
        { toolCalls: [{ name: 'mcp__everything__echo', arguments: { message: 'hello MCP' } }] },
        { toolCalls: [{ name: 'mcp__everything__get-tiny-image', arguments: {} }] },
        { text: 'The server echoed it.' },
      ],
      capabilities: { inputMediaTypes: ['image/*'] },
    });
    const store = createMemoryConversationStore();
    const runtime = createAgentRuntime({
      store,
      model,
      tools: client.toolHost(),
      settings: { compression: false },
    });
    const result = await runtime.chat({ userInput: 'Echo "hello MCP" through the server' });
    expect(result.success).toBe(true);
    expect(result.text).toBe('The server echoed it.');
    // The model saw the MCP tools, and read the tool's output on its next request.
    expect(model.requests[0]?.tools?.map((tool) => tool.name)).toContain('mcp__everything__echo');
    expect(JSON.stringify(model.requests[1]?.messages)).toContain('Echo: hello MCP');

    // The model is sent the image itself, its bytes inline, after the server's text (one part).
    const sentImage = model.requests[2]?.messages.findLast((message) => message.role === 'tool');
    expect(sentImage?.content).toEqual([
      { type: 'text', text: "Here's the image you requested:\nThe image above is the MCP logo." },
      {
        type: 'image',
        mediaType: 'image/png',
        source: { type: 'base64', data: expect.stringMatching(/^iVBOR/) },
      },
    ]);

    const stored = await store.load(result.conversationId);
    const tools = stored.filter((message) => message.role === 'tool');
    expect(tools[0]).toMatchObject({ content: 'Echo: hello MCP', toolName: 'mcp__everything__echo' });
    // Stored with its parts (a tiny image stays inline; bigger bytes go to the store's blobs).
    expect(tools[1]?.content).toMatchObject([{ type: 'text' }, { type: 'image' }, { type: 'text' }]);
    expect(tools[1]?.structuredResult).toMatchObject({
      parts: [{ type: 'text' }, { type: 'image' }, { type: 'text' }],
    });
    const executions = toDisplayMessages(stored).filter((message) => message.partType === 'tool_execution');
    expect(executions.map((message) => message.content)).toEqual([
      'everything · echo(message: "hello MCP")',
      // The display view names what the tool returned: an image.
      'everything · get-tiny-image() → image',
    ]);
    expect(executions[0]?.toolExecution).toMatchObject({ isError: false, output: 'Echo: hello MCP' });
  });
});
