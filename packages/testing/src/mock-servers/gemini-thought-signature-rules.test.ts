import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { geminiRequestProblem } from './gemini-request-rules.js';
import {
  geminiThoughtSignatureProblem,
  validatesThoughtSignatures,
} from './gemini-thought-signature-rules.js';

const SIG = 'bW9jay1zaWduYXR1cmU=';
const user = (text: string) => ({ role: 'user', parts: [{ text }] });
const call = (name: string, signature?: string) => ({
  functionCall: { name, args: {} },
  ...(signature === undefined ? {} : { thoughtSignature: signature }),
});
const model = (...parts: unknown[]) => ({ role: 'model', parts });
const responses = (...names: string[]) => ({
  role: 'user',
  parts: names.map((name) => ({ functionResponse: { name, response: { content: 'ok' } } })),
});
const MISSING = /^Function call is missing a thought_signature in functionCall parts\./;

describe('geminiThoughtSignatureProblem', () => {
  it('knows which models validate: Gemini 3 and later', () => {
    expect(
      ['gemini-3-pro-preview', 'gemini-3.1-flash', 'models/gemini-3-flash', 'gemini-4-pro'].map(
        validatesThoughtSignatures,
      ),
    ).toEqual([true, true, true, true]);
    expect(
      ['gemini-2.5-flash', 'gemini-flash-latest', 'gemini-test', 'other'].map(validatesThoughtSignatures),
    ).toEqual([false, false, false, false]);
  });

  it('refuses an unsigned first function call of a step in the current turn on Gemini 3, with Google’s text', () => {
    const contents = [user('Weather?'), model(call('get_weather')), responses('get_weather')];
    expect(geminiThoughtSignatureProblem(contents, 'gemini-3-pro-preview')).toBe(
      'Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. Additional data, function call `default_api:get_weather`, position 2. Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details.',
    );
    // Earlier models take it.
    expect(geminiThoughtSignatureProblem(contents, 'gemini-2.5-flash')).toBeUndefined();
  });

  it('needs the signature on the first of parallel calls only, and on every sequential step', () => {
    const parallel = [user('Two cities'), model(call('a', SIG), call('b')), responses('a', 'b')];
    expect(geminiThoughtSignatureProblem(parallel, 'gemini-3-flash')).toBeUndefined();
    const secondStepUnsigned = [...parallel, model(call('c')), responses('c')];
    expect(geminiThoughtSignatureProblem(secondStepUnsigned, 'gemini-3-flash')).toMatch(
      /`default_api:c`, position 4\./,
    );
    const firstUnsignedSecondSigned = [user('x'), model(call('a'), call('b', SIG)), responses('a', 'b')];
    expect(geminiThoughtSignatureProblem(firstUnsignedSecondSigned, 'gemini-3-flash')).toMatch(MISSING);
  });

  it('checks the current turn only: unsigned calls before the last user text pass', () => {
    const contents = [
      user('Earlier'),
      model(call('old')),
      responses('old'),
      model({ text: 'Done.' }),
      user('Now this'),
    ];
    expect(geminiThoughtSignatureProblem(contents, 'gemini-3-pro-preview')).toBeUndefined();
  });

  it('takes Google’s documented placeholder signatures', () => {
    for (const placeholder of ['skip_thought_signature_validator', 'context_engineering_is_the_way_to_go']) {
      const contents = [user('x'), model(call('a', placeholder)), responses('a')];
      expect(geminiThoughtSignatureProblem(contents, 'gemini-3-pro-preview')).toBeUndefined();
    }
  });

  it('refuses a signature that is not base64, on any model (the field is bytes)', () => {
    const contents = [user('x'), model({ text: 'hi', thoughtSignature: 'not base64!' })];
    expect(geminiThoughtSignatureProblem(contents, 'gemini-2.5-flash')).toBe(
      `Invalid value at 'contents[1].parts[0].thought_signature' (TYPE_BYTES), Base64 decoding failed for "not base64!"`,
    );
  });

  it('property: on Gemini 3 a request passes exactly when every step of the current turn signs its first call', () => {
    const step = fc.record({ calls: fc.integer({ min: 1, max: 3 }), signed: fc.boolean() });
    fc.assert(
      fc.property(
        fc.array(step, { maxLength: 4 }),
        fc.array(step, { minLength: 1, maxLength: 4 }),
        (before, current) => {
          const steps = (list: typeof current, prefix: string) =>
            list.flatMap(({ calls, signed }, index) => {
              const names = Array.from({ length: calls }, (_, n) => `${prefix}${index}_${n}`);
              return [
                model(...names.map((name, n) => call(name, n === 0 && signed ? SIG : undefined))),
                responses(...names),
              ];
            });
          const contents = [
            user('before'),
            ...steps(before, 'b'),
            model({ text: 'ok' }),
            user('now'),
            ...steps(current, 'c'),
          ];
          const problem = geminiThoughtSignatureProblem(contents, 'gemini-3-flash');
          expect(problem === undefined).toBe(current.every((s) => s.signed));
        },
      ),
    );
  });

  it('is part of geminiRequestProblem, with the model from the route', () => {
    const body = { contents: [user('x'), model(call('a')), responses('a')] };
    expect(geminiRequestProblem(body, { model: 'gemini-3-pro-preview' })).toMatch(MISSING);
    expect(geminiRequestProblem(body, { model: 'gemini-2.5-pro' })).toBeUndefined();
    expect(geminiRequestProblem(body)).toBeUndefined();
  });
});
