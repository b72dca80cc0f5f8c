// The whole conformance kit on the JSONL Chat adapter, against a mock server speaking its protocol.
import { describeModelAdapterConformance } from '@cairn/testing/conformance';
import { createJsonlChatAdapter } from '../src/jsonl-chat-adapter.mjs';
import { jsonlChatMockProtocol } from '../src/jsonl-chat-mock-protocol.mjs';

describeModelAdapterConformance({
  name: 'jsonl-chat',
  provider: jsonlChatMockProtocol,
  createAdapter: ({ baseURL, apiKey, maxRetries }) =>
    createJsonlChatAdapter({ model: 'jsonl-chat-test', baseURL, apiKey, maxRetries }),
});
