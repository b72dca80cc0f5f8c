import { CairnError } from '@cairn/core';

/** The image types OpenAI's vision models take (a GIF only when not animated). */
export const OPENAI_IMAGE_MEDIA_TYPES: readonly string[] = [
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
];

/** What OpenAI's vision models take: images, and PDFs as `file` parts (text and page images). */
export const OPENAI_VISION_MEDIA_TYPES: readonly string[] = [...OPENAI_IMAGE_MEDIA_TYPES, 'application/pdf'];

// OpenAI's families that take images and PDFs: GPT-4o, GPT-4.1, GPT-4.5, GPT-5, o1, o3, o4 (the
// id may carry a router's prefix, `openai/gpt-4o`). The text-only and audio members are excluded.
const VISION_MODEL = /^(?:.*\/)?(?:chatgpt-4o|gpt-4o|gpt-4\.1|gpt-4\.5|gpt-4-turbo|gpt-5|o1|o3|o4)(?:$|[-.])/;
const TEXT_ONLY_MODEL = /^(?:.*\/)?(?:o1-mini|o1-preview|o3-mini)|audio|realtime|transcribe|tts/;

/**
 * The media types a model takes by default, from its id: OpenAI's vision models take images and
 * PDFs; any other model (an older OpenAI one, or whatever an OpenAI-compatible server runs) is
 * assumed text only until `inputMediaTypes` says otherwise.
 */
export function defaultOpenAIInputMediaTypes(modelId: string): readonly string[] {
  const id = modelId.toLowerCase();
  return VISION_MODEL.test(id) && !TEXT_ONLY_MODEL.test(id) ? OPENAI_VISION_MEDIA_TYPES : [];
}

const MEDIA_TYPE_PATTERN = /^[a-z]+\/(?:\*|[a-z0-9][a-z0-9!#$&^_.+-]*)$/;

/**
 * The adapter's `inputMediaTypes`: the option when given (each a lower-case `type/subtype` or
 * `type/*`, else `INVALID_ARGUMENT` when the adapter is created, so a typo such as `png` does not
 * silently refuse every image), otherwise the model's default.
 */
export function resolveOpenAIInputMediaTypes(
  modelId: string,
  option: readonly string[] | undefined,
): readonly string[] {
  if (option === undefined) return defaultOpenAIInputMediaTypes(modelId);
  const invalid = option.find((entry) => typeof entry !== 'string' || !MEDIA_TYPE_PATTERN.test(entry));
  if (invalid !== undefined) {
    throw new CairnError(
      'INVALID_ARGUMENT',
      `openai: inputMediaTypes entry ${JSON.stringify(invalid)} is not a media type (image/png, image/*, application/pdf)`,
      { details: { provider: 'openai', path: 'inputMediaTypes' } },
    );
  }
  return [...option];
}
