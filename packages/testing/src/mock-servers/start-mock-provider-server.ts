import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { definedFields } from '@cairn/core';
import { resolveScriptTurn } from '../resolve-script-turn.js';
import { retryHeaders } from '../retry-headers.js';
import { MALFORMED_SSE_DATA, type RecordedRequest, type ScriptTurn } from '../script-turn.js';
import { anthropicMockProtocol } from './anthropic-mock-server.js';
import { geminiMockProtocol } from './gemini-mock-server.js';
import {
  flattenHeaders,
  parseBody,
  pause,
  readBodyText,
  STREAM_CONTENT_TYPES,
  sendJson,
  serializeFrame,
  splitRawSse,
  writeStreamEvents,
} from './mock-http.js';
import type { MockProviderProtocol, MockRoute, MockServerProvider } from './mock-provider-protocol.js';
import { openAIMockProtocol } from './openai-mock-server.js';
import { openAIResponsesMockProtocol } from './openai-responses-mock-server.js';

/** The built-in protocols by name; each is also exported, to wrap or to read. */
export const MOCK_PROVIDER_PROTOCOLS: Readonly<Record<MockServerProvider, MockProviderProtocol>> = {
  openai: openAIMockProtocol,
  'openai-responses': openAIResponsesMockProtocol,
  anthropic: anthropicMockProtocol,
  gemini: geminiMockProtocol,
};

/** The turns in request order, or a function choosing the turn for each answered request (0-based). */
export type MockTurns = ScriptTurn[] | ((request: RecordedRequest, index: number) => ScriptTurn);

export interface MockProviderServerOptions {
  /** A built-in protocol by name, or your own `MockProviderProtocol` object. */
  provider: MockServerProvider | MockProviderProtocol;
  turns: MockTurns;
  /**
   * Answer 400, as the real API does, to bodies breaking the rules adapters commonly get wrong
   * (unanswered tool calls, empty Anthropic text blocks, Gemini schema keywords, …). Default true;
   * a rejected request is recorded but uses no turn.
   */
  validateRequests?: boolean;
}

export interface MockProviderServer {
  /** The protocol's name (`MockProviderProtocol.provider`). */
  readonly provider: string;
  /** The origin plus the protocol's `baseUrlPath`: `/v1` for OpenAI, the bare origin for Anthropic and Gemini. */
  readonly baseURL: string;
  /** `http://127.0.0.1:<port>`. */
  readonly origin: string;
  /** Every request received, in arrival order (unknown routes included). */
  readonly requests: RecordedRequest[];
  close(): Promise<void>;
}

function pickTurn(turns: MockTurns, request: RecordedRequest, index: number): ScriptTurn {
  if (typeof turns === 'function') return turns(request, index);
  const turn = turns[index];
  if (turn === undefined) {
    throw new Error(`mock server: no script turn for request #${index + 1} (${turns.length} scripted)`);
  }
  return turn;
}

/**
 * Starts a loopback server speaking one provider's real wire protocol, answering each request
 * with the next script turn (JSON or SSE, as the request asks) and injecting the turn's faults.
 */
export async function startMockProviderServer(
  options: MockProviderServerOptions,
): Promise<MockProviderServer> {
  const protocol =
    typeof options.provider === 'string' ? MOCK_PROVIDER_PROTOCOLS[options.provider] : options.provider;
  const lineEnding = protocol.lineEnding ?? '\n';
  const requests: RecordedRequest[] = [];
  let answered = 0;

  const answer = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    // Closing early means the client aborted: stop waiting and writing, and note when.
    const clientGone = new AbortController();
    let recorded: RecordedRequest | undefined;
    let closedAt: number | undefined;
    let cutByServer = false;
    response.on('close', () => {
      clientGone.abort();
      if (response.writableFinished || cutByServer) return;
      closedAt = Date.now();
      if (recorded) recorded.closedAt = closedAt;
    });
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const body = parseBody(await readBodyText(request));
    const route: MockRoute | undefined = protocol.route(
      request.method ?? 'GET',
      url.pathname,
      url.searchParams,
      body,
    );
    recorded = {
      method: request.method ?? 'GET',
      path: url.pathname,
      url: request.url ?? '/',
      headers: flattenHeaders(request),
      body,
      stream: route?.stream ?? false,
      ...definedFields({ closedAt }),
    };
    requests.push(recorded);
    if (route === undefined) {
      sendJson(
        response,
        404,
        protocol.errorBody({ status: 404, message: `mock server: no route ${url.pathname}` }),
      );
      return;
    }
    const problem = options.validateRequests === false ? undefined : protocol.requestProblem?.(body, route);
    if (problem !== undefined) {
      sendJson(response, 400, protocol.errorBody({ status: 400, message: problem }));
      return;
    }
    const requestIndex = answered;
    answered += 1;
    const headers = protocol.responseHeaders?.(requestIndex) ?? {};

    let turn: ScriptTurn;
    try {
      turn = pickTurn(options.turns, recorded, requestIndex);
    } catch (error) {
      // A 400 rather than a 5xx, so clients do not retry a script that ran out.
      const message = error instanceof Error ? error.message : String(error);
      sendJson(response, 400, protocol.errorBody({ status: 400, message }), headers);
      return;
    }

    await pause(turn.delayMs ?? 0, clientGone.signal);
    if (clientGone.signal.aborted) return;
    if (turn.fault) {
      const { fault } = turn;
      const retryAfterMs =
        fault.retryAfterMs ??
        (fault.retryAfterSeconds === undefined ? undefined : fault.retryAfterSeconds * 1000);
      const errorBody = protocol.errorBody({
        ...fault,
        ...definedFields({ retryAfterMs }),
      });
      sendJson(response, fault.status, errorBody, { ...headers, ...retryHeaders(fault) });
      return;
    }
    if (!route.stream && turn.rawSse !== undefined) {
      const message = 'mock server: a rawSse turn answers streaming requests only';
      sendJson(response, 400, protocol.errorBody({ status: 400, message }), headers);
      return;
    }

    const context = {
      turn: resolveScriptTurn(turn, (callIndex) => protocol.toolCallId(requestIndex, callIndex)),
      model: route.model,
      requestIndex,
      body,
    };
    if (!route.stream) {
      sendJson(response, 200, protocol.response(context), headers);
      return;
    }
    const framing = route.framing ?? 'sse';
    if (framing === 'json-array') {
      const chunks = protocol.streamFrames(context).map((frame) => JSON.parse(frame.data) as unknown);
      sendJson(response, 200, chunks, headers);
      return;
    }
    if (framing !== 'sse' && turn.rawSse !== undefined) {
      const message = `mock server: a rawSse turn needs an SSE route, not ${framing}`;
      sendJson(response, 400, protocol.errorBody({ status: 400, message }), headers);
      return;
    }
    const rawLineEnding = turn.rawSse?.includes('\r\n') ? '\r\n' : lineEnding;
    const events =
      turn.rawSse === undefined
        ? protocol.streamFrames(context).map((frame) => serializeFrame(framing, frame, lineEnding))
        : splitRawSse(turn.rawSse);
    const malformed = serializeFrame(
      framing,
      { ...definedFields({ event: protocol.malformedEvent }), data: MALFORMED_SSE_DATA },
      rawLineEnding,
    );
    await writeStreamEvents(response, events, headers, {
      contentType: STREAM_CONTENT_TYPES[framing],
      ...definedFields({
        chunkDelayMs: turn.chunkDelayMs,
        cutAfterEvents: turn.cutAfterEvents,
        malformedAfterEvents: turn.malformedAfterEvents,
      }),
      malformedEvent: malformed,
      signal: clientGone.signal,
      onCut: () => {
        cutByServer = true;
      },
    });
  };

  const server = createServer((request, response) => {
    answer(request, response).catch((error: unknown) => {
      // A bug in a turn function must surface as an answer, not hang the client.
      if (response.headersSent) {
        response.destroy();
        return;
      }
      const message = `mock server: ${error instanceof Error ? error.message : String(error)}`;
      sendJson(response, 500, protocol.errorBody({ status: 500, message }));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;

  return {
    provider: protocol.provider,
    baseURL: origin + protocol.baseUrlPath,
    origin,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        // Keep-alive sockets of the SDKs would otherwise hold close() open.
        server.closeAllConnections();
      }),
  };
}
