import { type AgentOutput, AgentOutputSchema, type ModelMessage } from '@cairn/core';
import { ScriptedModel, type ScriptTurn } from '@cairn/testing';
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import { type } from 'arktype';
import * as v from 'valibot';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { echoTool } from '../test/loop-test-tools.js';
import { chatToolLoop } from './chat-tool-loop.js';
import type { LoopUserMessage } from './chat-tool-loop-types.js';
import { createToolHost } from './create-tool-host.js';

const Weather = z.object({ city: z.string(), celsius: z.number(), sky: z.enum(['clear', 'cloudy']) });
const WEATHER_SCHEMA = {
  type: 'object',
  properties: {
    city: { type: 'string' },
    celsius: { type: 'number' },
    sky: { type: 'string', enum: ['clear', 'cloudy'] },
  },
  required: ['city', 'celsius', 'sky'],
};
const OSLO = { city: 'Oslo', celsius: -3, sky: 'cloudy' };

const model = (turns: ScriptTurn[], structuredOutput = true) =>
  new ScriptedModel({ turns, capabilities: { structuredOutput, streaming: false } });
const question = (): ModelMessage[] => [
  { role: 'system', content: 'You are a weather service.' },
  { role: 'user', content: 'Weather in Oslo?' },
];

describe('chatToolLoop with output', () => {
  it('asks for the schema natively and returns the validated answer as a typed object', async () => {
    const scripted = model([{ text: JSON.stringify(OSLO) }]);
    const result = await chatToolLoop({ model: scripted, messages: question(), output: Weather });
    expect(result.success).toBe(true);
    if (!result.success) return;
    expectTypeOf(result.object).toEqualTypeOf<z.infer<typeof Weather>>();
    expect(result.object).toEqual(OSLO);
    expect(result.text).toBe(JSON.stringify(OSLO));
    expect(scripted.requests[0]?.output).toEqual({ type: 'json', schema: WEATHER_SCHEMA });
    // Native: the prompt is left as it was.
    expect(scripted.requests[0]?.messages[0]).toEqual(question()[0]);
  });

  it('lets the model call tools first, every call asking for the output', async () => {
    const scripted = model([
      { toolCalls: [{ id: 'c1', name: 'echo', arguments: { text: 'Oslo' } }] },
      { text: JSON.stringify(OSLO) },
    ]);
    const result = await chatToolLoop({
      model: scripted,
      tools: createToolHost([echoTool]),
      messages: question(),
      output: { schema: Weather, name: 'weather', description: 'The weather now' },
    });
    expect(result).toMatchObject({ success: true, turns: 2, object: OSLO });
    expect(scripted.requests.map((request) => request.output?.name)).toEqual(['weather', 'weather']);
    expect(scripted.requests[0]?.tools?.map((tool) => tool.name)).toEqual(['echo']);
  });

  it('asks a model without native structured output through the system prompt, a code fence tolerated', async () => {
    const scripted = model([{ text: `\`\`\`json\n${JSON.stringify(OSLO, null, 2)}\n\`\`\`` }], false);
    const result = await chatToolLoop({ model: scripted, messages: question(), output: Weather });
    expect(result).toMatchObject({ success: true, object: OSLO });
    const [request] = scripted.requests;
    expect(request?.output).toBeUndefined();
    const system = request?.messages[0]?.content as string;
    expect(system.startsWith('You are a weather service.\n\n')).toBe(true);
    expect(system).toContain('answer with one JSON value that matches');
    expect(system).toContain(JSON.stringify(WEATHER_SCHEMA));
    // Without a system prompt, the instruction is one; the loop's history never holds it.
    const bare: ModelMessage[] = [{ role: 'user', content: 'Weather in Oslo?' }];
    const again = model([{ text: JSON.stringify(OSLO) }], false);
    await chatToolLoop({ model: again, messages: bare, output: Weather });
    expect(again.requests[0]?.messages.map((message) => message.role)).toEqual(['system', 'user']);
    expect(bare.map((message) => message.role)).toEqual(['user', 'assistant']);
  });

  it('tells the model what was wrong and asks again, the feedback handed to onUserMessage', async () => {
    const scripted = model([
      { text: JSON.stringify({ ...OSLO, celsius: 'minus three' }) },
      { text: JSON.stringify(OSLO) },
    ]);
    const messages = question();
    const fed: LoopUserMessage[] = [];
    const result = await chatToolLoop({
      model: scripted,
      messages,
      output: Weather,
      onUserMessage: (message) => {
        fed.push(message);
      },
    });
    expect(result).toMatchObject({ success: true, turns: 2, object: OSLO });
    expect(fed).toHaveLength(1);
    expect(fed[0]).toMatchObject({ role: 'user', turn: 1 });
    expect(fed[0]?.content).toMatch(/does not match the required JSON Schema\.\n- celsius: .+\nAnswer again/);
    expect(scripted.requests[1]?.messages.at(-1)).toEqual({ role: 'user', content: fed[0]?.content });
    expect(messages.map((message) => message.role)).toEqual([
      'system',
      'user',
      'assistant',
      'user',
      'assistant',
    ]);
  });

  it('ends with OUTPUT_INVALID, the issues and the text in its details, when retries run out', async () => {
    const events: AgentOutput[] = [];
    const scripted = model([{ text: 'It is cold.' }, { text: JSON.stringify({ city: 'Oslo' }) }]);
    const result = await chatToolLoop({
      model: scripted,
      messages: question(),
      output: Weather,
      onEvent: (event) => events.push(event),
    });
    expect(result.success).toBe(false);
    expect(result.error?.code).toBe('OUTPUT_INVALID');
    expect(result.error?.message).toMatch(
      /^The model's answer does not match the output schema \(2 attempts\)/,
    );
    expect(result.error?.details).toMatchObject({
      text: '{"city":"Oslo"}',
      attempts: 2,
      issues: [
        { path: ['celsius'], message: expect.any(String) },
        { path: ['sky'], message: expect.any(String) },
      ],
    });
    expect(result.object).toBeUndefined();
    expect(events.filter((event) => event.type === 'error').map((event) => event.code)).toEqual([
      'OUTPUT_INVALID',
    ]);
    // The first answer was not JSON at all: that is what the model was told.
    expect(scripted.requests[1]?.messages.at(-1)?.content).toMatch(/- not valid JSON \(/);
  });

  it('asks once with outputRetries 0, and not beyond maxTurns', async () => {
    const once = model([{ text: '{}' }, { text: JSON.stringify(OSLO) }]);
    const result = await chatToolLoop({
      model: once,
      messages: question(),
      output: Weather,
      outputRetries: 0,
    });
    expect(result.error?.code).toBe('OUTPUT_INVALID');
    expect(once.requests).toHaveLength(1);
    const capped = model([{ text: '{}' }, { text: JSON.stringify(OSLO) }]);
    const last = await chatToolLoop({
      model: capped,
      messages: question(),
      output: Weather,
      outputRetries: 3,
      maxTurns: 1,
    });
    expect(last.error?.code).toBe('OUTPUT_INVALID');
    expect(capped.requests).toHaveLength(1);
  });

  it('streams partial objects, each consistent with the answer, the last one the answer', async () => {
    const text = JSON.stringify({
      city: 'Oslo',
      days: [
        { celsius: -3, sky: 'cloudy' },
        { celsius: 1, sky: 'clear' },
      ],
    });
    const Forecast = z.object({
      city: z.string(),
      days: z.array(z.object({ celsius: z.number(), sky: z.string() })),
    });
    const scripted = new ScriptedModel({
      turns: [{ text, chunkSize: 5 }],
      capabilities: { structuredOutput: true },
    });
    const partials: unknown[] = [];
    const order: string[] = [];
    const result = await chatToolLoop({
      model: scripted,
      messages: question(),
      output: Forecast,
      onEvent: (event) => {
        order.push(event.type);
        if (event.type === 'partial_object') {
          expect(AgentOutputSchema.parse(event)).toEqual(event);
          partials.push(event.object);
        }
      },
    });
    expect(result.success).toBe(true);
    expect(partials.length).toBeGreaterThan(5);
    expect(partials[0]).toEqual({});
    expect(partials).toContainEqual({ city: 'O' });
    expect(partials.at(-1)).toEqual(JSON.parse(text));
    // Each one differs from the one before, and follows the text it was parsed from.
    expect(new Set(partials.map((partial) => JSON.stringify(partial))).size).toBe(partials.length);
    expect(order.indexOf('text_delta')).toBeLessThan(order.indexOf('partial_object'));
  });

  it('takes valibot and arktype schemas as it takes zod', async () => {
    const valibot = toStandardJsonSchema(
      v.object({ city: v.string(), celsius: v.number(), sky: v.picklist(['clear', 'cloudy']) }),
    );
    const arktype = type({ city: 'string', celsius: 'number', sky: "'clear' | 'cloudy'" });
    for (const schema of [valibot, arktype]) {
      const scripted = model([
        { text: JSON.stringify({ ...OSLO, celsius: '-3' }) },
        { text: JSON.stringify(OSLO) },
      ]);
      const result = await chatToolLoop({ model: scripted, messages: question(), output: schema });
      expect(result).toMatchObject({ success: true, turns: 2, object: OSLO });
      expect(scripted.requests[0]?.output?.schema).toMatchObject({
        type: 'object',
        required: expect.arrayContaining(['city', 'celsius', 'sky']),
      });
      expect(scripted.requests[1]?.messages.at(-1)?.content).toMatch(/- celsius: /);
    }
  });

  it('has no object without output', async () => {
    const result = await chatToolLoop({ model: model([{ text: '{}' }]), messages: question() });
    expect(result.success).toBe(true);
    if (!result.success) return;
    expectTypeOf(result.object).toEqualTypeOf<undefined>();
    expect(result).not.toHaveProperty('object');
  });

  it('refuses a bad output option or retry count before calling the model', async () => {
    const scripted = model([{ text: '{}' }]);
    await expect(
      chatToolLoop({ model: scripted, messages: question(), output: { notASchema: true } as never }),
    ).rejects.toMatchObject({ code: 'UNSUPPORTED_SCHEMA' });
    await expect(
      chatToolLoop({ model: scripted, messages: question(), output: Weather, outputRetries: -1 }),
    ).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    expect(scripted.requests).toHaveLength(0);
  });
});
