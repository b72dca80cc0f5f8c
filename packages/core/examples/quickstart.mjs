// Validate a stored conversation, hide what the model must not see, and convert it into the
// request shape every Cairn model adapter accepts. Run: node examples/quickstart.mjs
import {
  assertSafeId,
  CairnError,
  isIncludedInContext,
  isToolCallMessage,
  parseConversationMessage,
  toOpenAIMessage,
} from '@cairn/core';

// A conversation as a store would hold it: one legacy message (written before tool calls were
// persisted), a tool call and its result with UI extras, and a note hidden from the model.
const stored = [
  {
    id: '1',
    role: 'user',
    content: 'What does test.txt say?',
    createdAt: '2026-01-18T00:00:00Z',
    mode: 'chat',
  },
  {
    id: '2',
    role: 'assistant',
    content: null,
    tool_calls: [
      { id: 'call_1', type: 'function', function: { name: 'read_file', arguments: '{"path":"test.txt"}' } },
    ],
    createdAt: '2026-01-18T00:00:01Z',
  },
  {
    id: '3',
    role: 'tool',
    content: 'hello from test.txt',
    tool_call_id: 'call_1',
    toolName: 'read_file',
    duration: 4,
    isCollapsed: true,
    createdAt: '2026-01-18T00:00:01Z',
  },
  {
    id: '4',
    role: 'assistant',
    content: 'It says "hello from test.txt".',
    createdAt: '2025-01-01T00:00:00Z',
    partType: 'content',
  },
  {
    id: '5',
    role: 'assistant',
    content: 'Saved to favourites.',
    createdAt: '2026-01-18T00:00:02Z',
    includeInContext: false,
  },
];

console.log('Stored conversation:');
const messages = stored.map(parseConversationMessage);
for (const message of messages) {
  const what = isToolCallMessage(message)
    ? `calls ${message.tool_calls.map((call) => `${call.function.name}(${call.function.arguments})`).join(', ')}`
    : JSON.stringify(message.content);
  const hidden = isIncludedInContext(message) ? '' : '  [hidden from the model]';
  console.log(`  #${message.id} ${message.role.padEnd(9)} ${what}${hidden}`);
}

const request = messages.filter(isIncludedInContext).map(toOpenAIMessage);
console.log('\nModel request (OpenAI Chat Completions shape, UI fields stripped):');
console.log(JSON.stringify(request, null, 2));

console.log('\nBad input is refused with a typed error, never used:');
for (const attempt of [
  () =>
    parseConversationMessage({ id: '6', role: 'tool', content: 'orphan', createdAt: '2026-01-18T00:00:03Z' }),
  () => assertSafeId('conversationId', '../../etc/passwd'),
]) {
  try {
    attempt();
  } catch (error) {
    if (!CairnError.is(error)) throw error;
    console.log(`  ${error.code}: ${error.message}`);
  }
}
