import { type AgentOutput, CairnError, type ConversationMessage, type ConversationStore } from '@cairn/core';
import { createMemoryConversationStore } from '@cairn/storage';
import { describe, expect, it } from 'vitest';
import { type AgentCliDefinition, claudeCodeCli, createAgentExecutor } from '../src/index.js';
import { CLAUDE_CODE_FIXTURE, FIXTURE_PROMPT, fakeAgentCommand, tempDir } from './support.js';

describe('runs on one conversation', () => {
  it('are queued, never interleaved', async () => {
    const store = createMemoryConversationStore();
    const executor = createAgentExecutor({
      store,
      agent: 'claude-code',
      cwd: await tempDir(),
      ...fakeAgentCommand({ FAKE_AGENT_FIXTURE: CLAUDE_CODE_FIXTURE, FAKE_AGENT_DELAY_MS: '3' }),
    });

    const [first, second] = await Promise.all([
      executor.run({ conversationId: 'shared', prompt: FIXTURE_PROMPT }),
      executor.run({ conversationId: 'shared', prompt: 'Once more' }),
    ]);

    const log = await store.load('shared');
    const runs = log.map((message) => message.runId);
    const switches = runs.filter((runId, index) => index > 0 && runId !== runs[index - 1]);
    expect(switches).toEqual([second.runId]);
    expect(runs[0]).toBe(first.runId);
    expect(first.messages.length + second.messages.length).toBe(log.length);
    expect(log.map((message) => message.seq)).toEqual(log.map((_, index) => index + 1));
  });

  it('runs on different conversations go in parallel', async () => {
    const store = createMemoryConversationStore();
    const executor = createAgentExecutor({
      store,
      agent: 'claude-code',
      cwd: await tempDir(),
      // Each agent hangs after its first tool call; it is stopped once the other one got there too,
      // which never happens if the runs wait for each other.
      ...fakeAgentCommand({
        FAKE_AGENT_FIXTURE: CLAUDE_CODE_FIXTURE,
        FAKE_AGENT_LINES: '3',
        FAKE_AGENT_HANG: '1',
      }),
    });
    const controllers = [new AbortController(), new AbortController()];
    let waiting = 2;
    const onEvent = (event: AgentOutput) => {
      if (event.type !== 'tool_use' || --waiting > 0) return;
      for (const controller of controllers) controller.abort();
    };

    const results = await Promise.all(
      ['one', 'two'].map((conversationId, index) =>
        executor.run({ conversationId, prompt: FIXTURE_PROMPT, onEvent, signal: controllers[index]?.signal }),
      ),
    );

    expect(results.map((result) => result.error?.code)).toEqual(['LLM_ABORTED', 'LLM_ABORTED']);
  });
});

describe('bad arguments and failures of the caller’s side reject', () => {
  it('refuses an unsafe conversation id before anything runs', async () => {
    const store = createMemoryConversationStore();
    const argvFile = `${await tempDir()}/argv.jsonl`;
    const executor = createAgentExecutor({
      store,
      agent: 'claude-code',
      cwd: await tempDir(),
      ...fakeAgentCommand({ FAKE_AGENT_ARGV_FILE: argvFile }),
    });

    await expect(executor.run({ conversationId: '../etc', prompt: 'hi' })).rejects.toMatchObject({
      code: 'INVALID_ID',
    });
    await expect(executor.run({ prompt: '  ' })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(executor.run({ prompt: 'hi', resume: '' })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
    expect((await store.listConversations()).conversations).toEqual([]);
  });

  it('refuses bad executor options', () => {
    const store = createMemoryConversationStore();
    const base = { store, cwd: '/tmp' };
    expect(() => createAgentExecutor({ ...base, agent: 'aider' as 'claude-code' })).toThrow(CairnError);
    expect(() => createAgentExecutor({ ...base, agent: 'claude-code', killGraceMs: -1 })).toThrow(
      /killGraceMs/,
    );
    expect(() => createAgentExecutor({ ...base, agent: 'claude-code', pendingTimeoutMs: 0 })).toThrow(
      /pendingTimeoutMs/,
    );
    expect(() => createAgentExecutor({ ...base, agent: 'claude-code', cwd: '' })).toThrow(/cwd/);
    expect(() =>
      createAgentExecutor({ ...base, agent: 'claude-code', extraArgs: [1 as unknown as string] }),
    ).toThrow(/extraArgs/);
    // Permissions become arguments: only the modes and tool names the schema allows.
    const permissions = (value: unknown) => () =>
      createAgentExecutor({ ...base, agent: 'claude-code', permissions: value as { mode: 'full' } });
    expect(permissions({ mode: 'yolo' })).toThrow(/^permissions\.mode: /);
    expect(permissions({ mode: 'edit', allowedTools: ['--dangerously-skip-permissions'] })).toThrow(
      /^permissions\.allowedTools\.0: must be a tool name/,
    );
    expect(permissions({ mode: 'edit', allowedTools: ['Read,Write'] })).toThrow(/allowedTools\.0/);
    expect(permissions({ mode: 'edit', extraArgs: ['--yolo'] })).toThrow(/^permissions: /);
    const { permissionArgs: _none, ...withoutPermissions } = claudeCodeCli;
    expect(() =>
      createAgentExecutor({ ...base, agent: withoutPermissions, permissions: { mode: 'read-only' } }),
    ).toThrow('Claude Code takes no permissions (its definition has no permissionArgs)');
  });

  it('a failing store rejects the run and stops the agent', async () => {
    const memory = createMemoryConversationStore();
    let appends = 0;
    const store: ConversationStore = {
      capabilities: memory.capabilities,
      append: (...args) => {
        appends++;
        if (appends === 3) return Promise.reject(new CairnError('STORE_UNAVAILABLE', 'disk full'));
        return memory.append(...args);
      },
      load: (...args) => memory.load(...args),
      listConversations: (...args) => memory.listConversations(...args),
      deleteConversation: (...args) => memory.deleteConversation(...args),
      putBlob: (...args) => memory.putBlob(...args),
      getBlob: (...args) => memory.getBlob(...args),
      close: () => memory.close(),
    };
    const executor = createAgentExecutor({
      store,
      agent: 'claude-code',
      cwd: await tempDir(),
      killGraceMs: 100,
      // It would hang forever if the executor did not stop it.
      ...fakeAgentCommand({ FAKE_AGENT_FIXTURE: CLAUDE_CODE_FIXTURE, FAKE_AGENT_HANG: '1' }),
    });

    await expect(executor.run({ conversationId: 'c', prompt: FIXTURE_PROMPT })).rejects.toThrow('disk full');
    expect(await memory.load('c')).toHaveLength(2);
  });

  it('a throwing event listener rejects the run and stops the agent', async () => {
    const store = createMemoryConversationStore();
    const executor = createAgentExecutor({
      store,
      agent: 'claude-code',
      cwd: await tempDir(),
      ...fakeAgentCommand({
        FAKE_AGENT_FIXTURE: CLAUDE_CODE_FIXTURE,
        FAKE_AGENT_LINES: '3',
        FAKE_AGENT_HANG: '1',
      }),
    });
    const onEvent = (event: AgentOutput) => {
      if (event.type === 'tool_use') throw new Error('listener bug');
    };

    await expect(executor.run({ conversationId: 'c', prompt: FIXTURE_PROMPT, onEvent })).rejects.toThrow(
      'listener bug',
    );
    const log = await store.load('c');
    expect(log.at(-1)).toMatchObject({ partType: 'error', content: 'The run was stopped: listener bug' });
  });

  it('a throwing log listener rejects the run; the log still ends with every call answered', async () => {
    const store = createMemoryConversationStore();
    const executor = createAgentExecutor({
      store,
      agent: 'claude-code',
      cwd: await tempDir(),
      ...fakeAgentCommand({ FAKE_AGENT_FIXTURE: CLAUDE_CODE_FIXTURE, FAKE_AGENT_LINES: '3' }),
    });
    const seen: string[] = [];
    const onLogMessage = (message: ConversationMessage) => {
      seen.push(message.role);
      if (message.tool_calls !== undefined) throw new Error('listener bug');
    };

    await expect(executor.run({ conversationId: 'c', prompt: FIXTURE_PROMPT, onLogMessage })).rejects.toThrow(
      'listener bug',
    );
    // Listeners are not called again after one threw; the store still gets the rest.
    expect(seen).toEqual(['user', 'assistant']);
    const log = await store.load('c');
    // (Then the agent's exit without a result line is recorded, when it came before the failure.)
    expect(log.slice(0, 3).map((message) => message.role)).toEqual(['user', 'assistant', 'tool']);
    expect(log[2]).toMatchObject({ interrupted: true });
  });
});

describe('another agent CLI', () => {
  it('runs from an AgentCliDefinition of its own', async () => {
    // A CLI that prints plain text: each line becomes one text block.
    const echoCli: AgentCliDefinition = {
      name: 'Echo',
      provider: 'echo',
      defaultCommand: 'echo-agent',
      writesResult: false,
      buildArgs: ({ prompt, extraArgs }) => [...extraArgs, prompt],
      createConverter: () => {
        let block = 0;
        return {
          push: (line): AgentOutput[] => [
            { type: 'text', timestamp: new Date().toISOString(), id: `t${block++}`, text: line },
          ],
          end: () => [],
        };
      },
    };
    const store = createMemoryConversationStore();
    const executor = createAgentExecutor({
      store,
      agent: echoCli,
      cwd: await tempDir(),
      ...fakeAgentCommand({ FAKE_AGENT_PRINT: 'hello\nworld\n' }),
    });

    const result = await executor.run({ prompt: 'say hello' });

    expect(result.success).toBe(true);
    expect(result.messages.map((message) => message.content)).toEqual(['say hello', 'hello\n\nworld']);
  });

  it('keeps the events of the lines converted before a converter throws, then rejects the run', async () => {
    // A chunk's lines are converted together before their events are processed: a converter that
    // throws on one line must not lose the lines before it in that chunk.
    const brittleCli: AgentCliDefinition = {
      name: 'Brittle',
      provider: 'brittle',
      defaultCommand: 'brittle-agent',
      writesResult: false,
      buildArgs: ({ prompt, extraArgs }) => [...extraArgs, prompt],
      createConverter: () => ({
        push: (line): AgentOutput[] => {
          if (line === 'boom') throw new Error('the converter broke');
          return [{ type: 'text', timestamp: new Date().toISOString(), id: line, text: line }];
        },
        end: () => [],
      }),
    };
    const store = createMemoryConversationStore();
    const executor = createAgentExecutor({
      store,
      agent: brittleCli,
      cwd: await tempDir(),
      // One write: the three lines arrive in one chunk.
      ...fakeAgentCommand({ FAKE_AGENT_PRINT: 'hello\nboom\nworld\n' }),
    });

    await expect(executor.run({ conversationId: 'c', prompt: 'say hello' })).rejects.toThrow(
      'the converter broke',
    );
    const log = await store.load('c');
    expect(log.map((message) => message.content)).toEqual([
      'say hello',
      'hello',
      'The run was stopped: the converter broke',
    ]);
  });

  it("reads events from the CLI's stderr through the definition's createStderrConverter", async () => {
    // A CLI that reports its retries on stderr only, as Gemini CLI does.
    const retryingCli: AgentCliDefinition = {
      name: 'Retrying',
      provider: 'retrying',
      defaultCommand: 'retrying-agent',
      writesResult: false,
      buildArgs: ({ prompt, extraArgs }) => [...extraArgs, prompt],
      createConverter: () => ({ push: () => [], end: () => [] }),
      createStderrConverter: () => ({
        push: (chunk): AgentOutput[] =>
          [...String(chunk).matchAll(/retry (\d+)/g)].map((match) => ({
            type: 'retry',
            timestamp: new Date().toISOString(),
            attempt: Number(match[1]),
          })),
      }),
    };
    const events: AgentOutput[] = [];
    const executor = createAgentExecutor({
      store: createMemoryConversationStore(),
      agent: retryingCli,
      cwd: await tempDir(),
      ...fakeAgentCommand({ FAKE_AGENT_PRINT: 'ok\n', FAKE_AGENT_STDERR: 'retry 1\nretry 2\n' }),
    });

    const result = await executor.run({ prompt: 'go', onEvent: (event) => events.push(event) });

    expect(result.success).toBe(true);
    expect(events.filter((event) => event.type === 'retry').map((event) => event.attempt)).toEqual([1, 2]);
    // Retries are shown live, not stored.
    expect(result.messages.map((message) => message.role)).toEqual(['user']);
  });
});
