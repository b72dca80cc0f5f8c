import {
  type ApprovalOutcome,
  approvalDecisionRecord,
  approvalRequestRecord,
  CairnError,
  type ContentPart,
  type ConversationMessage,
  type FinishReason,
} from '@cairn/core';
import {
  UI_MESSAGE_STREAM_HEADERS as AI_SDK_HEADERS,
  readUIMessageStream,
  type UIMessage,
  uiMessageChunkSchema,
} from 'ai';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ChatStreamEvent } from '../stream/chat-stream.js';
import {
  createUIMessageChunkMapper,
  type UIMessageStreamOptions,
  type UITurnOutcome,
} from './to-ui-message-chunks.js';
import { type UIMessageChunk, UIMessageChunkSchema } from './ui-message-chunk.js';
import { UI_MESSAGE_STREAM_HEADERS } from './ui-message-stream-response.js';

const timestamp = '2026-01-01T00:00:00.000Z';
const fields = { createdAt: timestamp };

const approvalRequest = (toolCallId: string) =>
  approvalRequestRecord(fields, {
    assistantMessageId: 'm',
    callIndex: 0,
    toolCallId,
    toolName: 'run_command',
    input: { command: 'ls' },
    askedOf: 'any',
  });

// The runtime event of a stored record.
const persisted = (message: ConversationMessage): ChatStreamEvent => ({
  type: 'runtime',
  event: 'message_persisted',
  conversationId: 'conv',
  message,
});

const approvalDecision = (outcome: ApprovalOutcome, reason?: string) =>
  approvalDecisionRecord(fields, {
    requestId: 'm.a0',
    outcome,
    decidedBy: 'caller:abc',
    decidedAt: timestamp,
    ...(reason === undefined ? {} : { reason }),
  });
const blockId = fc.constantFrom('text-0', 'text-1', 'r-0');
const callId = fc.constantFrom('c1', 'c2', 'c3');

// Any order of the events a turn can give, including orders no producer sends (a delta after its
// block closed, a result for an unknown call, a finish in the middle of a block).
const eventArb: fc.Arbitrary<ChatStreamEvent> = fc.oneof(
  fc.record({
    type: fc.constant('text_delta'),
    timestamp: fc.constant(timestamp),
    id: blockId,
    delta: fc.string(),
  }),
  fc.record({ type: fc.constant('text'), timestamp: fc.constant(timestamp), id: blockId, text: fc.string() }),
  fc.record({
    type: fc.constant('reasoning_delta'),
    timestamp: fc.constant(timestamp),
    id: blockId,
    delta: fc.string(),
  }),
  fc.record({
    type: fc.constant('reasoning'),
    timestamp: fc.constant(timestamp),
    id: blockId,
    text: fc.string(),
    redacted: fc.boolean(),
  }),
  fc.record(
    {
      type: fc.constant('tool_input_delta'),
      timestamp: fc.constant(timestamp),
      id: callId,
      toolName: fc.constantFrom('get_weather', 'read_file'),
      delta: fc.constantFrom('{"a', '":1', '}', ''),
    },
    { requiredKeys: ['type', 'timestamp', 'id', 'delta'] },
  ),
  fc.record({
    type: fc.constant('tool_use'),
    timestamp: fc.constant(timestamp),
    id: callId,
    toolName: fc.constantFrom('get_weather', 'read_file'),
    input: fc.oneof(fc.constant({ a: 1 }), fc.string()),
  }),
  fc.record({
    type: fc.constant('tool_result'),
    timestamp: fc.constant(timestamp),
    toolUseId: callId,
    output: fc.string(),
    isError: fc.boolean(),
  }),
  fc.record({
    type: fc.constant('tool_result'),
    timestamp: fc.constant(timestamp),
    toolUseId: callId,
    output: fc.constant('[image: shot.png]'),
    isError: fc.constant(false),
    content: fc.constant<ContentPart[]>([
      { type: 'image', mediaType: 'image/png', source: { type: 'base64', data: 'iVBORw0KGgo=' } },
    ]),
  }),
  fc.record({
    type: fc.constant('status'),
    timestamp: fc.constant(timestamp),
    status: fc.constant('model_fallback'),
    message: fc.string(),
    providerMetadata: fc.constant({ cairn: { provider: 'openai', model: 'gpt-x' } }),
  }),
  fc.record({
    type: fc.constant('usage'),
    timestamp: fc.constant(timestamp),
    usage: fc.record({ inputTokens: fc.nat(), outputTokens: fc.nat() }),
  }),
  fc.record({
    type: fc.constant('finish'),
    timestamp: fc.constant(timestamp),
    reason: fc.constantFrom<FinishReason>('stop', 'tool_calls', 'length', 'error'),
  }),
  fc.record({
    type: fc.constant('error'),
    timestamp: fc.constant(timestamp),
    code: fc.constant('LLM_UNAVAILABLE' as const),
    message: fc.string(),
    retryable: fc.boolean(),
  }),
  fc.record({
    type: fc.constant('runtime' as const),
    event: fc.constant('message_persisted' as const),
    conversationId: fc.constant('conv'),
    message: fc.oneof<fc.Arbitrary<ConversationMessage>[]>(
      fc.record({
        id: fc.constant('m'),
        role: fc.constant('assistant' as const),
        createdAt: fc.constant(timestamp),
        content: fc.string(),
      }),
      fc.constant({
        id: 'm',
        role: 'assistant' as const,
        createdAt: timestamp,
        content: '',
        tool_calls: [
          { id: 'c2', type: 'function' as const, function: { name: 'read_file', arguments: '{"path":"a"}' } },
        ],
      }),
      fc.constant({
        id: 'e',
        role: 'assistant' as const,
        createdAt: timestamp,
        content: 'failed',
        partType: 'error',
      }),
      callId.map((toolCallId) => approvalRequest(toolCallId)),
      fc
        .constantFrom<ApprovalOutcome>('approve', 'deny', 'edit', 'expired', 'superseded')
        .map((outcome) => approvalDecision(outcome)),
    ),
  }),
  fc.constant<ChatStreamEvent>({
    type: 'runtime',
    event: 'compression_applied',
    conversationId: 'conv',
    compressed: true,
    tokensBefore: 100,
    tokensAfter: 40,
    steps: ['summarize'],
  }),
);

const outcomeArb: fc.Arbitrary<UITurnOutcome> = fc.oneof(
  fc.constant({
    conversationId: 'conv',
    finishReason: 'stop' as const,
    usage: { inputTokens: 1, outputTokens: 2 },
  }),
  fc.constant({
    conversationId: 'conv',
    finishReason: 'aborted' as const,
    error: new CairnError('LLM_ABORTED', 'stopped'),
  }),
  fc.constant({
    conversationId: 'conv',
    finishReason: 'error' as const,
    error: new CairnError('LLM_AUTH', 'bad key'),
  }),
);

function chunksOf(
  events: ChatStreamEvent[],
  outcome: UITurnOutcome,
  options: UIMessageStreamOptions = { messageId: 'm1' },
): UIMessageChunk[] {
  const mapper = createUIMessageChunkMapper('conv', options);
  return [...events.flatMap((event) => mapper.push(event)), ...mapper.end(outcome)];
}

async function readAll(chunks: UIMessageChunk[], message?: UIMessage) {
  const stream = new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  const problems: unknown[] = [];
  let last: unknown;
  // An invalid sequence (a delta without its start, a result without its call) is reported to onError.
  const read = readUIMessageStream({
    stream,
    onError: (error) => problems.push(error),
    ...(message === undefined ? {} : { message }),
  });
  for await (const next of read) last = next;
  return { last, problems };
}

describe('createUIMessageChunkMapper', () => {
  it('whatever the events, every chunk is valid for the AI SDK schema and its reader accepts the sequence', async () => {
    const schema = uiMessageChunkSchema();
    await fc.assert(
      fc.asyncProperty(fc.array(eventArb, { maxLength: 30 }), outcomeArb, async (events, outcome) => {
        const chunks = chunksOf(events, outcome);
        for (const chunk of chunks) {
          expect(UIMessageChunkSchema.safeParse(chunk).success).toBe(true);
          expect((await schema.validate?.(chunk))?.success).toBe(true);
        }
        expect(chunks[0]).toMatchObject({ type: 'start', messageId: 'm1' });
        expect(chunks.at(-1)?.type).toBe(outcome.finishReason === 'aborted' ? 'abort' : 'finish');
        const { last, problems } = await readAll(chunks);
        // The only error the reader reports is the turn's own `error` chunk.
        expect(problems.map(String)).toEqual(
          outcome.finishReason === 'error' ? ['Error: LLM_AUTH: bad key'] : [],
        );
        expect(last).toMatchObject({ id: 'm1' });
      }),
      { numRuns: 200 },
    );
  });

  it('sends the headers the AI SDK sends', () => {
    expect(UI_MESSAGE_STREAM_HEADERS).toEqual(AI_SDK_HEADERS);
  });

  it('maps a tool error to tool-output-error, a tool’s image to a file part, a status (model fallback) to a transient data part', () => {
    const chunks = chunksOf(
      [
        { type: 'tool_use', timestamp, id: 'c1', toolName: 'read_file', input: { path: 'x' } },
        { type: 'finish', timestamp, reason: 'tool_calls' },
        { type: 'tool_result', timestamp, toolUseId: 'c1', output: 'ENOENT', isError: true },
      ],
      { conversationId: 'conv', finishReason: 'stop' },
    );
    expect(chunks).toContainEqual({
      type: 'tool-output-error',
      toolCallId: 'c1',
      errorText: 'ENOENT',
      dynamic: true,
    });
    const shot = chunksOf(
      [
        { type: 'tool_use', timestamp, id: 'c2', toolName: 'screenshot', input: {} },
        {
          type: 'tool_result',
          timestamp,
          toolUseId: 'c2',
          output: '[image]',
          isError: false,
          content: [
            { type: 'image', mediaType: 'image/png', source: { type: 'base64', data: 'iVBORw0KGgo=' } },
          ],
        },
        {
          type: 'status',
          timestamp,
          status: 'model_fallback',
          message: 'now gpt-x',
          providerMetadata: { cairn: { model: 'gpt-x' } },
        },
      ],
      { conversationId: 'conv', finishReason: 'stop' },
    );
    expect(shot).toContainEqual({
      type: 'file',
      mediaType: 'image/png',
      url: 'data:image/png;base64,iVBORw0KGgo=',
    });
    expect(shot).toContainEqual({
      type: 'data-cairn-status',
      data: { status: 'model_fallback', message: 'now gpt-x', detail: { model: 'gpt-x' } },
      transient: true,
    });
  });

  it('a call that waits for approval: the stored request is a tool-approval-request the reader shows; its decision a response', async () => {
    const asked = chunksOf(
      [
        { type: 'tool_use', timestamp, id: 'c1', toolName: 'run_command', input: { command: 'ls' } },
        { type: 'finish', timestamp, reason: 'tool_calls' },
        persisted(approvalRequest('c1')),
        // A request of a call the client never saw is not sent: the reader would fail on it.
        persisted(approvalRequest('c9')),
      ],
      { conversationId: 'conv', finishReason: 'tool_calls' },
    );
    expect(asked.filter((chunk) => chunk.type.startsWith('tool-approval'))).toEqual([
      { type: 'tool-approval-request', approvalId: 'm.a0', toolCallId: 'c1' },
    ]);
    const { last, problems } = await readAll(asked);
    expect(problems).toEqual([]);
    expect((last as UIMessage).parts).toContainEqual(
      expect.objectContaining({ toolCallId: 'c1', state: 'approval-requested', approval: { id: 'm.a0' } }),
    );

    // Decided in the same stream (an in-process approver): refused, so the result is a denial.
    const denied = chunksOf(
      [
        { type: 'tool_use', timestamp, id: 'c1', toolName: 'run_command', input: { command: 'ls' } },
        persisted(approvalRequest('c1')),
        persisted(approvalDecision('deny', 'not now')),
        { type: 'tool_result', timestamp, toolUseId: 'c1', output: 'Denied: not now', isError: true },
      ],
      { conversationId: 'conv', finishReason: 'stop' },
    );
    expect(
      denied.filter(
        (chunk) => chunk.type.startsWith('tool-approval') || chunk.type.startsWith('tool-output'),
      ),
    ).toEqual([
      { type: 'tool-approval-request', approvalId: 'm.a0', toolCallId: 'c1' },
      { type: 'tool-approval-response', approvalId: 'm.a0', approved: false, reason: 'not now' },
      { type: 'tool-output-denied', toolCallId: 'c1' },
    ]);
    expect(((await readAll(denied)).last as UIMessage).parts).toContainEqual(
      expect.objectContaining({ toolCallId: 'c1', state: 'output-denied' }),
    );
  });

  it('continuing a message whose approvals the client answered: the approved call’s output, the refused one’s denial, for the client and for a reader replaying the stream', async () => {
    const calls = (['c1', 'c2'] as const).map((toolCallId, index) => ({
      toolCallId,
      toolName: 'run_command',
      input: { command: 'ls' },
      approval: { id: `m.a${index}`, approved: index === 0 },
    }));
    // The client's message: it answered both approvals (`addToolApprovalResponse`).
    const answered: UIMessage = {
      id: 'm1',
      role: 'assistant',
      parts: [
        { type: 'step-start' },
        { type: 'text', text: 'Listing.' },
        ...calls.map((call) => ({
          type: 'dynamic-tool' as const,
          state: 'approval-responded' as const,
          ...call,
        })),
      ],
    };
    const chunks = chunksOf(
      [
        { type: 'tool_result', timestamp, toolUseId: 'c1', output: 'a.txt', isError: false },
        { type: 'tool_result', timestamp, toolUseId: 'c2', output: 'Not approved', isError: true },
        { type: 'text', timestamp, id: 'text-0', text: 'Listed.' },
      ],
      { conversationId: 'conv', finishReason: 'stop' },
      { continuing: calls },
    );
    expect(chunks[0]).toEqual({ type: 'start', messageMetadata: { conversationId: 'conv' } });
    const toolParts = (message: unknown) =>
      (message as UIMessage).parts.filter((part) => part.type === 'dynamic-tool');
    const outcome = [
      {
        toolCallId: 'c1',
        state: 'output-available',
        output: 'a.txt',
        approval: { id: 'm.a0', approved: true },
      },
      { toolCallId: 'c2', state: 'output-denied', approval: { id: 'm.a1', approved: false } },
    ];

    const live = await readAll(chunks, answered);
    expect(live.problems).toEqual([]);
    expect(toolParts(live.last)).toMatchObject(outcome);
    // Its parts went on in place: nothing added twice.
    expect((live.last as UIMessage).parts.map((part) => part.type)).toEqual([
      'step-start',
      'text',
      'dynamic-tool',
      'dynamic-tool',
      'step-start',
      'text',
    ]);
    expect(live.last).toMatchObject({ id: 'm1' });

    // A reloaded page replays the stream from its first chunk, from nothing: the calls are rebuilt.
    const replayed = await readAll(chunks);
    expect(replayed.problems).toEqual([]);
    expect(toolParts(replayed.last)).toMatchObject(outcome);
    expect((replayed.last as UIMessage).parts.at(-1)).toMatchObject({ type: 'text', text: 'Listed.' });
  });
});
