import { readFileSync } from 'node:fs';
import { createClaudeCodeConverter } from '@cairn/agent-cli/claude-code';
import type { AgentOutput, ConversationMessage } from '@cairn/core';
import { describe, expect, it } from 'vitest';
import { createMessageProcessor } from './create-message-processor.js';
import { DisplayView } from './display-view.js';
import { LiveDisplay } from './live-display.js';
import { toDisplayMessages } from './to-display-messages.js';

// Real Claude Code 2.1.197 recordings (`@cairn/agent-cli`'s fixtures/real): `sleep 30` interrupted
// with SIGINT to its process group about 2 s in, and the main scenario (Write, Edit, Bash, Read).
const fixture = (name: string) =>
  readFileSync(new URL(`../../agent-cli/fixtures/real/claude-code/${name}`, import.meta.url), 'utf8')
    .split('\n')
    .filter(Boolean);
const SLEEP = fixture('sigint-sleep.jsonl');
const MAIN = fixture('main.jsonl');
const timestamp = '2026-11-26T12:00:00.000Z';

type Shown = { from: 'live' | 'log'; message: ConversationMessage };

/** A processor whose live and log display go through one `LiveDisplay` into a `DisplayView`. */
function liveRun(live = true) {
  const log: ConversationMessage[] = [];
  const shown: Shown[] = [];
  const view = new DisplayView();
  const passed: ConversationMessage[] = [];
  const display = new LiveDisplay((message) => {
    passed.push(message);
    view.add(message);
  });
  let next = 0;
  const processor = createMessageProcessor({
    onLogMessage: (message) => log.push(message),
    onDisplayMessage: (message) => {
      shown.push({ from: 'log', message });
      display.logged(message);
    },
    ...(live
      ? {
          onLiveDisplayMessage: (message: ConversationMessage) => {
            shown.push({ from: 'live', message });
            display.live(message);
          },
        }
      : {}),
    generateId: () => `id${++next}`,
    now: () => Date.parse(timestamp),
  });
  // Claude Code's assistant lines carry no time: the converter's clock stamps them.
  const converter = createClaudeCodeConverter({ now: () => new Date(timestamp) });
  const push = (line: string) => {
    for (const event of converter.push(line)) processor.push(event);
  };
  const end = () => {
    for (const event of converter.end()) processor.push(event);
    processor.end();
  };
  return { log, shown, view, passed, processor, push, end };
}

describe('live display: a call is shown running at once, then completed in place', () => {
  it('real Claude Code `sleep 30`: the text and the running call show before any result (nothing is logged yet)', () => {
    const run = liveRun();
    const toolUseLine = SLEEP.findIndex((line) => line.includes('"tool_use"'));
    for (const line of SLEEP.slice(0, toolUseLine + 1)) run.push(line);
    // The log holds the message until the result: only the live display shows it.
    expect(run.log).toEqual([]);
    expect(run.view.messages.map((m) => [m.partType ?? m.role, m.content, m.toolExecution?.status])).toEqual([
      ['assistant', 'Waiting a while.', undefined],
      ['tool_execution', 'Running Bash: sleep 30', 'running'],
    ]);
    const running = run.view.messages[1];
    expect(running?.toolExecution).toMatchObject({ toolName: 'Bash', input: { command: 'sleep 30' } });

    for (const line of SLEEP.slice(toolUseLine + 1)) run.push(line);
    run.end();
    // The same list a reload shows, the running line replaced where it was.
    expect(run.view.messages).toEqual(toDisplayMessages(run.log));
    expect(run.view.messages[1]?.id).toBe(running?.id);
    expect(run.view.messages[1]?.toolExecution?.status).not.toBe('running');
    // The text was passed on once, not again when the log caught up.
    expect(run.passed.filter((m) => m.content === 'Waiting a while.')).toHaveLength(1);
  });

  it('real Claude Code main scenario: the log is the same with and without live display', () => {
    const withLive = liveRun(true);
    const without = liveRun(false);
    for (const line of MAIN) {
      withLive.push(line);
      without.push(line);
    }
    withLive.end();
    without.end();
    expect(withLive.log).toEqual(without.log);
    expect(withLive.view.messages).toEqual(without.view.messages);
    const running = withLive.shown.filter(({ message }) => message.toolExecution?.status === 'running');
    expect(running.map(({ message }) => message.content)).toEqual([
      'Running Write: hello.txt',
      'Running Edit: hello.txt',
      'Running Bash: ls -la',
      'Running Read: does-not-exist.txt',
    ]);
    // Each running call is followed, later, by its finished execution with the same id.
    for (const { message } of running) {
      const done = withLive.shown.filter(({ from, message: m }) => from === 'log' && m.id === message.id);
      expect(done).toHaveLength(1);
    }
  });

  it('parallel calls: both show running, each completes in place in the order its result comes', () => {
    const run = liveRun();
    const events: AgentOutput[] = [
      { type: 'session_start', timestamp, provider: 'claude-code', sessionId: 's', cwd: '/w' },
      { type: 'text', timestamp, id: 'b1', messageId: 'm1', text: 'Two at once.' },
      {
        type: 'tool_use',
        timestamp,
        id: 'A',
        messageId: 'm1',
        toolName: 'Bash',
        input: { command: 'sleep 2' },
      },
      {
        type: 'tool_use',
        timestamp,
        id: 'B',
        messageId: 'm1',
        toolName: 'Read',
        input: { file_path: '/w/x.ts' },
      },
    ];
    const statuses = () =>
      run.view.messages.map((m) => (m.toolExecution ? (m.toolExecution.status ?? 'completed') : m.content));
    // Pushed straight as events: the converter is not needed for the order.
    const push = (event: AgentOutput) => run.processor.push(event);
    for (const event of events) push(event);
    expect(statuses()).toEqual(['Two at once.', 'running', 'running']);
    expect(run.view.messages.slice(1).map((m) => m.content)).toEqual([
      'Running Bash: sleep 2',
      'Running Read: x.ts',
    ]);
    push({ type: 'tool_result', timestamp, toolUseId: 'B', output: 'export {}', isError: false });
    expect(statuses()).toEqual(['Two at once.', 'running', 'completed']);
    push({ type: 'tool_result', timestamp, toolUseId: 'A', output: '', isError: false });
    expect(statuses()).toEqual(['Two at once.', 'completed', 'completed']);
    run.processor.end();
    expect(run.log.map((m) => m.role)).toEqual(['assistant', 'tool', 'tool']);
    expect(run.log[0]?.tool_calls?.map((call) => call.id)).toEqual(['A', 'B']);
    // Live, each stays where its call started; a reload places an execution at its result.
    const reloaded = toDisplayMessages(run.log);
    expect(run.view.messages.map((m) => m.id)).toEqual(['id1', 'id1:A', 'id1:B']);
    expect(reloaded.map((m) => m.id)).toEqual(['id1', 'id1:B', 'id1:A']);
    const byId = (messages: ConversationMessage[]) => [...messages].sort((a, b) => a.id.localeCompare(b.id));
    expect(byId(run.view.messages)).toEqual(byId(reloaded));
  });

  it('a call left running when the stream ends is replaced by its unfinished execution', () => {
    const run = liveRun();
    run.processor.push({
      type: 'tool_use',
      timestamp,
      id: 'A',
      toolName: 'Bash',
      input: { command: 'sleep 30' },
    });
    expect(run.view.messages.map((m) => m.toolExecution?.status)).toEqual(['running']);
    run.processor.end('aborted');
    expect(run.view.messages.map((m) => m.toolExecution?.status)).toEqual(['unfinished']);
    expect(run.view.messages).toEqual(toDisplayMessages(run.log));
  });
  it('reasoning and text show once each, again only when they grew, with the ids and fields of the log view', () => {
    const run = liveRun();
    const base = { timestamp, messageId: 'm1' };
    const push = (event: AgentOutput) => run.processor.push(event);
    push({ type: 'session_start', timestamp, provider: 'claude-code', sessionId: 's1', cwd: '/w' });
    push({ type: 'reasoning', id: 'r1', text: 'Thinking it over', ...base });
    push({ type: 'text', id: 't1', text: 'First', ...base });
    push({ type: 'tool_use', id: 'A', toolName: 'Read', input: { file_path: '/w/a.ts' }, ...base });
    push({ type: 'tool_use', id: 'B', toolName: 'Bash', input: 'raw text input', ...base });
    push({ type: 'text', id: 't2', text: 'Second', ...base });
    push({ type: 'tool_use', id: 'C', toolName: 'Glob', input: { pattern: '**/*.ts' }, ...base });
    const live = run.shown.filter((shown) => shown.from === 'live').map((shown) => shown.message);
    expect(live.map((message) => [message.id, message.partType, message.content])).toEqual([
      ['id1:thinking', 'thinking', 'Thinking it over'],
      ['id1', undefined, 'First'],
      ['id1:A', 'tool_execution', 'Running Read: a.ts'],
      ['id1:B', 'tool_execution', 'Running Bash: raw text input'],
      ['id1', undefined, 'First\n\nSecond'],
      ['id1:C', 'tool_execution', 'Running Glob: **/*.ts'],
    ]);
    // The live text part is the log view's text part of the message so far: same fields, same order.
    run.end();
    const logged = run.shown.find((shown) => shown.from === 'log' && shown.message.id === 'id1')?.message;
    expect(Object.keys(live[1] ?? {})).toEqual(Object.keys(logged ?? {}));
    expect(live[4]).toEqual(logged);
    expect(live[3]?.toolExecution?.input).toBe('raw text input');
  });
});
