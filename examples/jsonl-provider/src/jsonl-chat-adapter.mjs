// A ModelAdapter for the made-up JSONL Chat API (README.md): POST /v1/chat, answered with one JSON
// body, or with one JSON value per line when `stream` is true. Built on @cairn/provider-utils'
// public exports only, as an adapter outside this repository would be.
import { CairnError } from '@cairn/core';
import {
  classifyError,
  classifyHttpError,
  createModelStream,
  createResultAssembler,
  requireApiKey,
  retryStream,
  splitLines,
  withRetry,
} from '@cairn/provider-utils';

const PROVIDER = 'jsonl-chat';

/** ModelMessages → the API's messages. Reasoning and providerMetadata have no field: dropped. */
export function convertToJsonlChatMessages(messages) {
  return messages.map((message) => {
    switch (message.role) {
      case 'system':
      case 'user':
        return { role: message.role, text: message.content };
      case 'assistant':
        return {
          role: 'assistant',
          text: message.content || null,
          calls: (message.tool_calls ?? []).map((call) => ({
            id: call.id,
            name: call.function.name,
            args: parseArguments(call.function.arguments),
          })),
        };
      case 'tool':
        return {
          role: 'tool',
          call_id: message.tool_call_id,
          result: message.content,
          ...(message.isError ? { failed: true } : {}),
        };
      default:
        throw new CairnError('INVALID_MESSAGE', `${PROVIDER}: unknown role ${JSON.stringify(message.role)}`);
    }
  });
}

// The API takes arguments as a JSON object; a model's invalid JSON is sent back as the string it was.
function parseArguments(text) {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The API's stop reason → the unified one, the raw one kept. */
export function mapJsonlChatStopReason(raw) {
  const reasons = { end: 'stop', call: 'tool_calls', limit: 'length', blocked: 'content_filter' };
  return { reason: reasons[raw] ?? 'other', rawReason: raw };
}

export function convertJsonlChatUsage(usage) {
  return {
    inputTokens: usage.in ?? 0,
    outputTokens: usage.out ?? 0,
    ...(usage.cached ? { cacheReadTokens: usage.cached } : {}),
  };
}

/** A whole answer, reported to the same sink a stream uses, so both build the same message. */
export function readJsonlChatResponse(response, sink) {
  sink.start({ responseId: response.id, modelId: response.model });
  if (response.thinking) {
    sink.reasoningDelta('thinking', response.thinking);
    sink.reasoningEnd('thinking');
  }
  if (response.text) sink.textDelta('text', response.text);
  for (const call of response.calls ?? []) {
    sink.toolCallStart(call.id, call.name);
    sink.toolCallEnd(call.id, { arguments: JSON.stringify(call.args) });
  }
  sink.usage(convertJsonlChatUsage(response.usage ?? {}));
  const { reason, rawReason } = mapJsonlChatStopReason(response.stop);
  sink.finish(reason, rawReason);
}

/** The streamed body → its JSON lines. A line that is not JSON is LLM_BAD_RESPONSE, keeping it. */
export async function* parseJsonlChatLines(response) {
  for await (const text of splitLines(response.body)) {
    if (text.trim() === '') continue;
    try {
      yield JSON.parse(text);
    } catch {
      throw new CairnError('LLM_BAD_RESPONSE', `${PROVIDER}: a stream line is not JSON`, {
        details: { provider: PROVIDER, raw: text },
      });
    }
  }
}

/** Stream lines → the sink: thinking, text, tool calls with argument pieces, then the stop line. */
export async function readJsonlChatLines(lines, sink) {
  const calls = [];
  let thinking = false;
  for await (const line of lines) {
    // Thinking comes first; the first other line ends it (reasoningEnd alone would make a block).
    if (thinking && line.type !== 'thinking') sink.reasoningEnd('thinking');
    thinking = line.type === 'thinking';
    switch (line.type) {
      case 'begin':
        sink.start({ responseId: line.id, modelId: line.model });
        break;
      case 'thinking':
        sink.reasoningDelta('thinking', line.delta);
        break;
      case 'text':
        sink.textDelta('text', line.delta);
        break;
      case 'call':
        sink.textEnd('text');
        calls.push(line.id);
        sink.toolCallStart(line.id, line.name);
        break;
      case 'args':
        sink.toolInputDelta(line.id, line.delta);
        break;
      case 'stop': {
        for (const id of calls) sink.toolCallEnd(id);
        sink.usage(convertJsonlChatUsage(line.usage ?? {}));
        const { reason, rawReason } = mapJsonlChatStopReason(line.reason);
        sink.finish(reason, rawReason);
        break;
      }
      default:
        sink.unknown(line);
    }
  }
}

export function createJsonlChatAdapter({ model, baseURL, apiKey, maxRetries = 2 }) {
  const retry = (signal) => ({ maxRetries, provider: PROVIDER, signal });

  async function post(body, request, signal) {
    // Read per request: an adapter may be built before its key exists.
    const key = requireApiKey(PROVIDER, apiKey, ['JSONL_CHAT_API_KEY']);
    const response = await fetch(`${baseURL}/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key, ...request.headers },
      body: JSON.stringify(body),
      signal,
    });
    if (response.ok) return response;
    const text = await response.text();
    let parsed = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // Not JSON: classified from the status and the text.
    }
    throw classifyHttpError({
      status: response.status,
      provider: PROVIDER,
      headers: response.headers,
      body: parsed,
      message: parsed?.error?.message,
    });
  }

  function body(request, stream) {
    const { maxOutputTokens, temperature } = request.settings ?? {};
    const tools = (request.tools ?? []).map(({ name, description, inputSchema }) => ({
      name,
      description,
      schema: inputSchema,
    }));
    return {
      model,
      messages: convertToJsonlChatMessages(request.messages),
      ...(tools.length > 0 ? { tools } : {}),
      ...(maxOutputTokens === undefined ? {} : { max_tokens: maxOutputTokens }),
      ...(temperature === undefined ? {} : { temperature }),
      stream,
    };
  }

  return {
    provider: PROVIDER,
    modelId: model,
    capabilities: { streaming: true, toolCalls: true, parallelToolCalls: true, reasoning: true },

    async generate(request) {
      const { signal } = request;
      try {
        const json = await withRetry(
          async () => (await post(body(request, false), request, signal)).json(),
          retry(signal),
        );
        const assembler = createResultAssembler();
        readJsonlChatResponse(json, assembler);
        return assembler.complete();
      } catch (error) {
        throw classifyError(error, { provider: PROVIDER, signal });
      }
    },

    stream(request) {
      return createModelStream(
        async (sink, signal) => {
          const lines = retryStream(
            async () => parseJsonlChatLines(await post(body(request, true), request, signal)),
            retry(signal),
          );
          await readJsonlChatLines(lines, sink);
        },
        { provider: PROVIDER, signal: request.signal },
      );
    },
  };
}
