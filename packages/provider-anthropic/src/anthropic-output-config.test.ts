import { describe, expect, it } from 'vitest';
import { anthropicOutputConfig } from './anthropic-output-config.js';
import type { AnthropicTurn } from './convert-to-anthropic-messages.js';

const user: AnthropicTurn[] = [{ role: 'user', content: [{ type: 'text', text: 'Extract.' }] }];

describe('anthropicOutputConfig', () => {
  it('is absent without an output format', () => {
    expect(anthropicOutputConfig(undefined, user)).toBeUndefined();
  });

  it('sends the schema as json_schema, closed and with unsupported constraints moved to descriptions', () => {
    const config = anthropicOutputConfig(
      {
        type: 'json',
        name: 'invoice',
        schema: {
          type: 'object',
          properties: {
            total: { type: 'number', minimum: 0 },
            lines: { type: 'array', items: { type: 'object', properties: { sku: { type: 'string' } } } },
          },
          required: ['total'],
        },
      },
      user,
    );
    expect(config).toEqual({
      format: {
        type: 'json_schema',
        schema: {
          type: 'object',
          properties: {
            total: { type: 'number', description: '{minimum: 0}' },
            lines: {
              type: 'array',
              items: { type: 'object', properties: { sku: { type: 'string' } }, additionalProperties: false },
            },
          },
          additionalProperties: false,
          required: ['total'],
        },
      },
    });
  });

  it('refuses a schema without a type, and a prefill', () => {
    expect(() => anthropicOutputConfig({ type: 'json', schema: { properties: {} } }, user)).toThrow(
      /cannot be used for structured output/,
    );
    const prefill: AnthropicTurn[] = [...user, { role: 'assistant', content: [{ type: 'text', text: '{' }] }];
    expect(() => anthropicOutputConfig({ type: 'json', schema: { type: 'object' } }, prefill)).toThrow(
      /prefill/,
    );
  });
});
