import type { ModelAssistantMessage, ModelMessage } from '@cairn/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { convertToOpenAIResponsesInput } from './convert-to-openai-responses-input.js';
import type { OpenAIResponsesItemRef } from './openai-responses-metadata.js';

const call = (id: string) => ({
  id,
  type: 'function' as const,
  function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
});

/** An assistant message as the Responses adapter stores it, for the given output items. */
function storedAnswer(items: OpenAIResponsesItemRef[], text = 'Answer.'): ModelAssistantMessage {
  const calls = items.flatMap((item) => (item.type === 'function_call' ? [call(item.callId)] : []));
  return {
    role: 'assistant',
    content: items.some((item) => item.type === 'message') ? text : null,
    ...(calls.length > 0 ? { tool_calls: calls } : {}),
    reasoning: items.flatMap((item) =>
      item.type === 'reasoning'
        ? [
            {
              text: `thought ${item.id}`,
              providerMetadata: { openai: { itemId: item.id, encryptedContent: `enc-${item.id}` } },
            },
          ]
        : [],
    ),
    providerMetadata: { openai: { items: items as never } },
  };
}

describe('convertToOpenAIResponsesInput', () => {
  it('turns system, user parts and tool results into Responses input items', () => {
    const messages: ModelMessage[] = [
      { role: 'system', content: 'Be brief.' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Look:' },
          { type: 'image', mediaType: 'image/png', source: { type: 'base64', data: 'iVBO' } },
          { type: 'file', mediaType: 'application/pdf', source: { type: 'base64', data: 'JVBE' } },
        ],
      },
      { role: 'assistant', content: 'Checking.', tool_calls: [call('call_1')] },
      { role: 'tool', tool_call_id: 'call_1', content: '{"temperature":21}', isError: true },
    ];
    expect(convertToOpenAIResponsesInput(messages)).toEqual([
      { role: 'system', content: 'Be brief.' },
      {
        role: 'user',
        content: [
          { type: 'input_text', text: 'Look:' },
          { type: 'input_image', image_url: 'data:image/png;base64,iVBO', detail: 'auto' },
          { type: 'input_file', filename: 'file-1-2.pdf', file_data: 'data:application/pdf;base64,JVBE' },
        ],
      },
      { role: 'assistant', content: 'Checking.' },
      { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
      { type: 'function_call_output', call_id: 'call_1', output: '{"temperature":21}' },
    ]);
  });

  it('puts a tool result’s images into its function_call_output', () => {
    const [output] = convertToOpenAIResponsesInput([
      {
        role: 'tool',
        tool_call_id: 'call_1',
        content: [
          { type: 'text', text: 'Screenshot:' },
          {
            type: 'image',
            mediaType: 'image/png',
            source: { type: 'url', url: 'https://example.com/a.png' },
          },
        ],
      },
    ]);
    expect(output).toEqual({
      type: 'function_call_output',
      call_id: 'call_1',
      output: [
        { type: 'input_text', text: 'Screenshot:' },
        { type: 'input_image', image_url: 'https://example.com/a.png', detail: 'auto' },
      ],
    });
  });

  it('replays a stored answer item for item: each reasoning item before the item that followed it', () => {
    const items: OpenAIResponsesItemRef[] = [
      { type: 'reasoning', id: 'rs_1' },
      { type: 'function_call', id: 'fc_1', callId: 'call_1' },
      { type: 'reasoning', id: 'rs_2' },
      { type: 'message', id: 'msg_1' },
    ];
    expect(convertToOpenAIResponsesInput([storedAnswer(items)])).toEqual([
      {
        type: 'reasoning',
        id: 'rs_1',
        summary: [{ type: 'summary_text', text: 'thought rs_1' }],
        encrypted_content: 'enc-rs_1',
      },
      {
        type: 'function_call',
        id: 'fc_1',
        call_id: 'call_1',
        name: 'get_weather',
        arguments: '{"city":"Paris"}',
      },
      {
        type: 'reasoning',
        id: 'rs_2',
        summary: [{ type: 'summary_text', text: 'thought rs_2' }],
        encrypted_content: 'enc-rs_2',
      },
      {
        type: 'message',
        id: 'msg_1',
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: 'Answer.', annotations: [] }],
      },
    ]);
  });

  it('drops a reasoning item whose following item is gone, and foreign reasoning', () => {
    const answer = storedAnswer([
      { type: 'reasoning', id: 'rs_1' },
      { type: 'function_call', id: 'fc_1', callId: 'call_1' },
    ]);
    const withoutCall = {
      ...answer,
      tool_calls: [],
      reasoning: [...(answer.reasoning ?? []), { text: 'elsewhere' }],
    };
    expect(convertToOpenAIResponsesInput([withoutCall])).toEqual([]);
  });

  it('sends an item whose reasoning item is gone without its id', () => {
    const answer = storedAnswer([
      { type: 'reasoning', id: 'rs_1' },
      { type: 'message', id: 'msg_1' },
    ]);
    expect(convertToOpenAIResponsesInput([{ ...answer, reasoning: [] }])).toEqual([
      {
        type: 'message',
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: 'Answer.', annotations: [] }],
      },
    ]);
  });

  it('property: every replayed reasoning item is followed by a message or call, in the recorded order', () => {
    const ref = fc.oneof(
      fc.constant<'reasoning'>('reasoning'),
      fc.constant<'message'>('message'),
      fc.constant<'function_call'>('function_call'),
    );
    fc.assert(
      fc.property(
        fc.array(ref, { maxLength: 8 }),
        fc.array(fc.boolean(), { maxLength: 8 }),
        (types, keep) => {
          const items = types.map(
            (type, index): OpenAIResponsesItemRef =>
              type === 'function_call'
                ? { type, id: `fc_${index}`, callId: `call_${index}` }
                : { type, id: `${type}_${index}` },
          );
          const answer = storedAnswer(items);
          // Some calls removed from the message (as history repair or an edit may do).
          const kept = {
            ...answer,
            tool_calls: (answer.tool_calls ?? []).filter((_, index) => keep[index] !== false),
          };
          const input = convertToOpenAIResponsesInput([kept]) as { type?: string; id?: string }[];
          input.forEach((item, index) => {
            if (item.type !== 'reasoning') return;
            const next = input[index + 1];
            expect(next?.type === 'message' || next?.type === 'function_call').toBe(true);
            const recorded = items.findIndex((each) => each.id === item.id);
            expect(items[recorded + 1]?.id).toBe(next?.id);
          });
          const ids = input.flatMap((item) => (item.id === undefined ? [] : [item.id]));
          expect(ids).toEqual(items.map((item) => item.id).filter((id) => ids.includes(id)));
        },
      ),
    );
  });
});
