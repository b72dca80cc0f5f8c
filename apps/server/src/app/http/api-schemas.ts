import {
  type AgentOutput,
  agentOutputJsonSchema,
  CairnErrorCodeSchema,
  type ConversationMessage,
  conversationMessageJsonSchema,
  isSafeId,
  SAFE_ID_PATTERN,
} from '@cairn/core';
import { z } from '@hono/zod-openapi';
import { jsonSchemaComponent } from './json-schema-component.js';

export const ConversationMessageSchema = jsonSchemaComponent<ConversationMessage>(
  'ConversationMessage',
  conversationMessageJsonSchema(),
);

export const AgentOutputSchema = jsonSchemaComponent<AgentOutput>('AgentOutput', agentOutputJsonSchema());

export const CairnErrorJsonSchema = z
  .object({
    name: z.literal('CairnError'),
    code: CairnErrorCodeSchema,
    message: z.string(),
    retryable: z.boolean(),
    retryAfterMs: z.number().optional(),
    details: z.record(z.string(), z.unknown()).optional(),
  })
  .openapi('CairnError');

/** A safe id (`isSafeId`): what every store accepts as a path segment or key. */
export const SafeIdSchema = z
  .string()
  .regex(SAFE_ID_PATTERN)
  .refine(isSafeId, 'must not start with a dot')
  .openapi({ example: 'c-7f3a9e2b' });

/** `:id` of the conversation routes; a failure here is answered `INVALID_ID` (see the validation hook). */
export const ConversationParamsSchema = z.object({
  id: SafeIdSchema.openapi({ param: { name: 'id', in: 'path' } }),
});

/**
 * A whole number in a query string, written plainly: decimal digits only, at most 15 (a safe integer).
 * `z.coerce.number` would also take `1e3`, ` 12 `, `0x10`, `1.0` or an empty string (as 0).
 */
function queryIntegerSchema(min: number, max = Number.MAX_SAFE_INTEGER) {
  return z
    .string()
    .regex(/^\d{1,15}$/, 'must be a plain decimal integer')
    .transform(Number)
    .pipe(z.number().int().min(min).max(max))
    .openapi({ type: 'integer', minimum: min, ...(max === Number.MAX_SAFE_INTEGER ? {} : { maximum: max }) });
}

/** A `seq` in a query string. */
export const SeqQuerySchema = queryIntegerSchema(1);

/** A page size in a query string: 1 to `max`, `fallback` when absent. */
export function limitQuerySchema(max: number, fallback: number) {
  return queryIntegerSchema(1, max).default(fallback).openapi({ default: fallback });
}

/** How a turn's event stream sends the answer's text. */
export const TurnStreamQuerySchema = z.object({
  text: z
    .enum(['deltas', 'full'])
    .optional()
    .openapi({
      description:
        'Event stream only. `deltas` (default): the answer text and reasoning go once, as `text_delta` and ' +
        "`reasoning_delta` events. `full`: also each block's closing `text` or `reasoning` event and every " +
        "stored message's `content` and `reasoning`",
    }),
});

/** What a turn's event stream leaves out by default (appended to each event-stream description). */
export const TEXT_ONCE_DESCRIPTION =
  ' The answer text and reasoning are sent once, as `text_delta` and `reasoning_delta` events: a text ' +
  "block's closing `text` event is left out when its deltas were sent (unless it carries `providerMetadata`), " +
  "and so is a reasoning block's closing `reasoning` event; an assistant `message` whose `content` is exactly " +
  'the text streamed since the previous `message` comes without `content`, and one whose reasoning is exactly ' +
  'the reasoning streamed comes without `reasoning` (its id, seq, tool calls, usage and metadata are all ' +
  'there): take what was streamed. Ask for all of it with `?text=full`.';
