import type { ModelRequest, ModelToolDefinition } from '@cairn/core';

export const CONFORMANCE_API_KEY = 'conformance-api-key';

export const SYSTEM_PROMPT = 'You are the Cairn conformance assistant. Answer briefly.';

export const WEATHER_TOOL: ModelToolDefinition = {
  name: 'get_weather',
  description: 'Current weather for a city',
  inputSchema: {
    $schema: 'http://json-schema.org/draft-07/schema#',
    type: 'object',
    properties: {
      city: { type: 'string', description: 'City name' },
      unit: { type: 'string', enum: ['C', 'F'] },
    },
    required: ['city'],
    additionalProperties: false,
  },
};

export const TIME_TOOL: ModelToolDefinition = {
  name: 'get_time',
  description: 'Current time in an IANA time zone',
  inputSchema: {
    type: 'object',
    properties: { zone: { type: 'string' } },
    required: ['zone'],
  },
};

/** A system prompt, one user message and both tools. */
export function conformanceRequest(text: string, extra: Partial<ModelRequest> = {}): ModelRequest {
  return {
    messages: [
      { role: 'system', content: SYSTEM_PROMPT },
      { role: 'user', content: text },
    ],
    tools: [WEATHER_TOOL, TIME_TOOL],
    ...extra,
  };
}
