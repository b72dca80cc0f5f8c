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

    const stored = await store.load(result.conversationId);
    const tools = stored.filter((message) => message.role === 'tool');
    expect(tools[0]).toMatchObject({ content: 'Echo: hello MCP', toolName: 'mcp__everything__echo' });
    expect(tools[1]?.structuredResult).toMatchObject({
      parts: [{ type: 'text' }, { type: 'image' }, { type: 'text' }],
    });
    const executions = toDisplayMessages(stored).filter((message) => message.partType === 'tool_execution');
    expect(executions.map((message) => message.content)).toEqual([
      'everything · echo(message: "hello MCP")',
      'everything · get-tiny-image()',
    ]);
    expect(executions[0]?.toolExecution).toMatchObject({ isError: false, output: 'Echo: hello MCP' });
  });
});
