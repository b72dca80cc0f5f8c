import { describe, expect, it } from 'vitest';
import { anthropicRequestProblem } from './anthropic-request-rules.js';

// A PNG header big enough for its size to be read: signature, IHDR length and type, width, height.
function png(width: number, height: number, extra = 0): string {
  const bytes = Buffer.alloc(33 + extra);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(bytes, 0);
  bytes.writeUInt32BE(13, 8);
  bytes.write('IHDR', 12, 'latin1');
  bytes.writeUInt32BE(width, 16);
  bytes.writeUInt32BE(height, 20);
  return bytes.toString('base64');
}
const pdf = Buffer.from('%PDF-1.7\n%%EOF\n').toString('base64');

const image = (data: string, media_type = 'image/png') => ({
  type: 'image',
  source: { type: 'base64', media_type, data },
});
const user = (...content: unknown[]) => ({ role: 'user', content });
const problem = (messages: unknown[], extra: Record<string, unknown> = {}) =>
  anthropicRequestProblem({ model: 'm', max_tokens: 10, messages, ...extra });

describe('anthropicRequestProblem: images and documents', () => {
  it('accepts images and documents where the API takes them', () => {
    const toolUse = { type: 'tool_use', id: 't1', name: 'read', input: {} };
    expect(
      problem([
        user(
          { type: 'text', text: 'look' },
          image(png(10, 10)),
          { type: 'image', source: { type: 'url', url: 'https://example.com/a.png' } },
          { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: pdf } },
          { type: 'document', source: { type: 'url', url: 'https://example.com/a.pdf' } },
          { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'notes' } },
        ),
        { role: 'assistant', content: [toolUse] },
        user({ type: 'tool_result', tool_use_id: 't1', content: [image(png(4, 4))] }),
      ]),
    ).toBeUndefined();
  });

  it('refuses bad media types, bad or mismatched bytes, oversized images and misplaced blocks', () => {
    expect(problem([user(image(png(1, 1), 'image/bmp'))])).toContain('media_type');
    expect(problem([user(image('iVBORw0KGgo'))])).toContain('invalid base64');
    expect(problem([user(image(''))])).toContain('Field required');
    expect(problem([user(image(png(1, 1), 'image/jpeg'))])).toContain('appears to be a image/png');
    expect(problem([user(image(png(8001, 10)))])).toContain('8000 pixels');
    expect(problem([user(...Array.from({ length: 20 }, () => image(png(2001, 10))))])).toBeUndefined();
    expect(problem([user(...Array.from({ length: 21 }, () => image(png(2001, 10))))])).toContain(
      '2000 pixels',
    );
    expect(problem([user(image(png(10, 10, 5 * 1024 * 1024)))])).toContain('5 MB');
    expect(problem([user(...Array.from({ length: 101 }, () => image(png(1, 1))))])).toContain(
      'Too many images',
    );
    expect(
      problem([user({ type: 'document', source: { type: 'base64', media_type: 'text/csv', data: pdf } })]),
    ).toContain("'application/pdf'");
    expect(
      problem([
        user({
          type: 'document',
          source: { type: 'base64', media_type: 'application/pdf', data: png(1, 1) },
        }),
      ]),
    ).toContain('not valid');
    expect(
      problem([user({ type: 'text', text: 'hi' }), { role: 'assistant', content: [image(png(1, 1))] }]),
    ).toContain('only allowed in user messages');
    expect(
      problem([user({ type: 'text', text: 'hi' })], {
        system: [{ type: 'text', text: 'x' }, image(png(1, 1))],
      }),
    ).toContain("system.1.type: Input should be 'text'");
  });
});

describe('anthropicRequestProblem: cache breakpoints and structured output', () => {
  const cached = (ttl?: string) => ({
    type: 'text',
    text: 'x',
    cache_control: ttl === undefined ? { type: 'ephemeral' } : { type: 'ephemeral', ttl },
  });

  it('takes up to four ephemeral breakpoints, 1h ones before 5m ones', () => {
    expect(problem([user(cached('1h'), cached(), cached(), cached('5m'))])).toBeUndefined();
    expect(problem([user(cached(), cached(), cached(), cached(), cached())])).toContain('A maximum of 4');
    expect(problem([user(cached(), cached('1h'))])).toContain("must not come after a ttl='5m'");
    expect(problem([user({ type: 'text', text: 'x', cache_control: { type: 'persistent' } })])).toContain(
      "'ephemeral'",
    );
    expect(problem([user(cached('2h'))])).toContain("'5m' or '1h'");
  });

  it('wants every object of an output schema closed, no prefill, and no thinking with a forced tool', () => {
    const format = (schema: unknown) => ({ output_config: { format: { type: 'json_schema', schema } } });
    const closed = {
      type: 'object',
      properties: {
        items: { type: 'array', items: { type: 'object', properties: {}, additionalProperties: false } },
      },
      additionalProperties: false,
    };
    expect(problem([user(cached())], format(closed))).toBeUndefined();
    const open = {
      ...closed,
      properties: { items: { type: 'array', items: { type: 'object', properties: {} } } },
    };
    expect(problem([user(cached())], format(open))).toContain('schema.properties.items.items');
    expect(problem([user(cached())], { output_config: { format: { type: 'json' } } })).toContain(
      'json_schema',
    );
    expect(
      problem(
        [user(cached()), { role: 'assistant', content: [{ type: 'text', text: '{' }] }],
        format(closed),
      ),
    ).toContain('Prefilling');
    expect(
      problem([user(cached())], {
        tools: [{ name: 'a', input_schema: { type: 'object' } }],
        tool_choice: { type: 'tool', name: 'a' },
        thinking: { type: 'enabled', budget_tokens: 1024 },
      }),
    ).toContain('Thinking may not be enabled');
  });
});
