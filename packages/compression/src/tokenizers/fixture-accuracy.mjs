// The shared scenario's five captured turns per provider (see __fixtures__/README.md), rebuilt as
// the ModelMessage[] each request carried, and a replay of them against a tokenizer. Plain
// JavaScript, because bench/tokenizer-accuracy.mjs runs it over the built package.
import { readFileSync } from 'node:fs';

const FIXTURES = new URL('./__fixtures__/', import.meta.url);
const TURNS = [1, 2, 3, 4, 5];

const read = (path) => readFileSync(new URL(path, FIXTURES), 'utf8');
const jsonLines = (path) =>
  read(path)
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line));
const sseData = (path) =>
  read(path)
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .map((line) => JSON.parse(line.slice('data: '.length)));

const assistantMessage = (text, toolCalls) => ({
  role: 'assistant',
  content: text === '' ? null : text,
  ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
});
const toolCall = (id, name, args) => ({ id, type: 'function', function: { name, arguments: args } });

// Claude Code's stream does not echo the prompt; the Gemini CLI's, of the same scenario, does.
const prompt = () => ({
  role: 'user',
  content: jsonLines('gemini-cli/stream.jsonl').find(
    (line) => line.type === 'message' && line.role === 'user',
  ).content,
});

/** One Anthropic turn: the input tokens reported in `message_start` and the streamed reply. */
function readAnthropicTurn(turn) {
  let reportedInputTokens = 0;
  let text = '';
  const toolCalls = [];
  for (const event of sseData(`anthropic-api/sse-turn${turn}.txt`)) {
    if (event.type === 'message_start') reportedInputTokens = event.message.usage.input_tokens;
    if (event.type === 'content_block_start' && event.content_block.type === 'tool_use') {
      toolCalls.push(toolCall(event.content_block.id, event.content_block.name, ''));
    }
    if (event.type !== 'content_block_delta') continue;
    if (event.delta.type === 'text_delta') text += event.delta.text;
    // Blocks stream one after another, so argument deltas belong to the last call started.
    if (event.delta.type === 'input_json_delta')
      toolCalls.at(-1).function.arguments += event.delta.partial_json;
  }
  return { reportedInputTokens, reply: assistantMessage(text, toolCalls) };
}

/** Claude Code's tool results (`tool_result` blocks of its `user` lines), by tool use id. */
function readClaudeCodeToolResults() {
  const results = new Map();
  for (const line of jsonLines('claude-code/stream.jsonl')) {
    if (line.type !== 'user') continue;
    for (const block of line.message.content) {
      if (block.type !== 'tool_result') continue;
      const content =
        typeof block.content === 'string' ? block.content : block.content.map((part) => part.text).join('');
      results.set(block.tool_use_id, {
        role: 'tool',
        tool_call_id: block.tool_use_id,
        content,
        isError: block.is_error === true,
      });
    }
  }
  return results;
}

/** One Gemini turn: `promptTokenCount` and the reply; thoughts are left out, as the CLI does. */
function readGeminiTurn(turn, nextToolId) {
  let reportedInputTokens = 0;
  let text = '';
  const toolCalls = [];
  for (const chunk of sseData(`gemini-api/sse-turn${turn}.txt`)) {
    if (chunk.usageMetadata !== undefined) reportedInputTokens = chunk.usageMetadata.promptTokenCount;
    for (const part of chunk.candidates?.[0]?.content?.parts ?? []) {
      if (part.thought === true) continue;
      if (part.text !== undefined) text += part.text;
      // Gemini calls carry no id; the CLI's, in call order, stand in.
      if (part.functionCall !== undefined) {
        toolCalls.push(
          toolCall(nextToolId(), part.functionCall.name, JSON.stringify(part.functionCall.args)),
        );
      }
    }
  }
  return { reportedInputTokens, reply: assistantMessage(text, toolCalls) };
}

/** Gemini CLI's tool results by tool id: the error message on failure, else the output ('' if absent). */
function readGeminiCliToolResults() {
  const results = new Map();
  for (const line of jsonLines('gemini-cli/stream.jsonl')) {
    if (line.type !== 'tool_result') continue;
    const failed = line.status === 'error';
    results.set(line.tool_id, {
      role: 'tool',
      tool_call_id: line.tool_id,
      content: (failed ? line.error?.message : line.output) ?? '',
      isError: failed,
    });
  }
  return results;
}

/** Each turn's request (the same message objects, extended turn by turn) with its reported input tokens. */
function buildTurns(readTurn, toolResults) {
  const messages = [prompt()];
  return TURNS.map((turn) => {
    const { reportedInputTokens, reply } = readTurn(turn);
    const request = { messages: [...messages], reportedInputTokens };
    messages.push(reply, ...(reply.tool_calls ?? []).map((call) => toolResults.get(call.id)));
    return request;
  });
}

export function readFixtureTurns(provider) {
  if (provider === 'anthropic') return buildTurns(readAnthropicTurn, readClaudeCodeToolResults());
  const toolIds = jsonLines('gemini-cli/stream.jsonl')
    .filter((line) => line.type === 'tool_use')
    .map((line) => line.tool_id);
  let nextCall = 0;
  return buildTurns((turn) => readGeminiTurn(turn, () => toolIds[nextCall++]), readGeminiCliToolResults());
}

const relativeError = (estimate, actual) => Math.abs(estimate - actual) / actual;

/**
 * Replays the turns as they happen live: count each request with `tokenizer` before sending it,
 * then calibrate it with the input tokens the provider reported. Each turn after the first also
 * compares the growth since the previous request: reported, predicted by the calibrated count, and
 * estimated by `uncalibrated` (a fresh tokenizer of the same kind that is never calibrated).
 */
export function replayTurns(turns, tokenizer, uncalibrated) {
  return turns.map(({ messages, reportedInputTokens }, index) => {
    const predicted = tokenizer.count(messages);
    const scale = tokenizer.scale;
    tokenizer.calibrate(messages, reportedInputTokens);
    const result = { turn: index + 1, reported: reportedInputTokens, predicted, scale };
    result.relativeError = relativeError(predicted, reportedInputTokens);
    const previous = turns[index - 1];
    if (previous === undefined) return result;
    const reportedGrowth = reportedInputTokens - previous.reportedInputTokens;
    const estimatedGrowth = uncalibrated.count(messages) - uncalibrated.count(previous.messages);
    return {
      ...result,
      reportedGrowth,
      predictedGrowth: predicted - previous.reportedInputTokens,
      estimatedGrowth,
      calibratedGrowthError: relativeError(predicted - previous.reportedInputTokens, reportedGrowth),
      uncalibratedGrowthError: relativeError(estimatedGrowth, reportedGrowth),
    };
  });
}
