import { isRecord } from '../is-record.js';

// Thought signatures as the Gemini API checks them
// (https://ai.google.dev/gemini-api/docs/thought-signatures):
// - a `thoughtSignature` is proto `bytes`, so it must be base64 (any model);
// - on Gemini 3 models, within the current turn (everything after the last user message that is
//   not only function responses), the first `functionCall` part of each model step must carry its
//   signature; parallel calls after the first need none. Earlier turns are not checked.
// - Google's documented placeholders pass the check for calls that never had a signature.

/** The dummy signatures the documentation gives for function calls made elsewhere. */
export const GEMINI_PLACEHOLDER_SIGNATURES: ReadonlySet<string> = new Set([
  'skip_thought_signature_validator',
  'context_engineering_is_the_way_to_go',
]);

const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;

/** Gemini 3 and later validate function-call signatures; an alias without a version is taken as older. */
export function validatesThoughtSignatures(model: string): boolean {
  const major = /^(?:models\/)?gemini-(\d+)/.exec(model)?.[1];
  return major !== undefined && Number(major) >= 3;
}

const partsOf = (content: unknown): Record<string, unknown>[] =>
  isRecord(content) && Array.isArray(content.parts) ? content.parts.filter(isRecord) : [];

/** A user turn that starts a new turn: anything but function responses alone. */
const startsTurn = (content: unknown) =>
  isRecord(content) &&
  content.role !== 'model' &&
  partsOf(content).some((part) => !('functionResponse' in part));

/** The API's 400 message when `contents` breaks a thought-signature rule for `model`, else `undefined`. */
export function geminiThoughtSignatureProblem(
  contents: readonly unknown[],
  model: string,
): string | undefined {
  for (const [index, content] of contents.entries()) {
    for (const [partIndex, part] of partsOf(content).entries()) {
      const signature = part.thoughtSignature;
      if (signature === undefined) continue;
      const text = typeof signature === 'string' ? signature : '';
      if (text === '' || !BASE64.test(text) || text.replace(/=+$/, '').length % 4 === 1) {
        return `Invalid value at 'contents[${index}].parts[${partIndex}].thought_signature' (TYPE_BYTES), Base64 decoding failed for "${text.slice(0, 40)}"`;
      }
    }
  }
  if (!validatesThoughtSignatures(model)) return undefined;
  let turnStart = 0;
  for (const [index, content] of contents.entries()) if (startsTurn(content)) turnStart = index;
  for (let index = turnStart; index < contents.length; index++) {
    const content = contents[index];
    if (!isRecord(content) || content.role !== 'model') continue;
    const first = partsOf(content).find((part) => 'functionCall' in part);
    if (first === undefined || first.thoughtSignature !== undefined) continue;
    const name = isRecord(first.functionCall) ? String(first.functionCall.name) : '';
    // Google's wording, as the API returns it; the position counts contents from 1.
    return `Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. Additional data, function call \`default_api:${name}\`, position ${index + 1}. Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details.`;
  }
  return undefined;
}
