// What the Gemini API takes as images, documents, audio and video (ai.google.dev, "Image
// understanding", "Document understanding", "Audio understanding", "Video understanding"). GIF and
// SVG are not among them: the API answers 400 for them, so the adapter refuses them first.

/** Media types of image and file parts Gemini models take (`capabilities.inputMediaTypes`). */
export const GEMINI_INPUT_MEDIA_TYPES: readonly string[] = [
  'image/png',
  'image/jpeg',
  'image/webp',
  'image/heic',
  'image/heif',
  'application/pdf',
  // Documents Gemini reads as plain text.
  'text/plain',
  'text/html',
  'text/css',
  'text/csv',
  'text/markdown',
  'text/xml',
  'text/rtf',
  'text/javascript',
  'text/x-python',
  'text/x-typescript',
  'application/json',
  'application/x-javascript',
  'application/x-python',
  'application/x-typescript',
  'audio/wav',
  'audio/mp3',
  'audio/mpeg',
  'audio/aiff',
  'audio/aac',
  'audio/ogg',
  'audio/flac',
  'video/mp4',
  'video/mpeg',
  'video/mov',
  'video/avi',
  'video/x-flv',
  'video/mpg',
  'video/webm',
  'video/wmv',
  'video/3gpp',
];

/**
 * Media a function response may nest in its own `parts` (Gemini 3's multimodal function
 * responses): images and documents given inline. Anything else a tool returns follows the
 * function responses as parts of the same `user` turn.
 */
export const GEMINI_FUNCTION_RESPONSE_MEDIA_TYPES: readonly string[] = [
  'image/png',
  'image/jpeg',
  'image/webp',
  'application/pdf',
  'text/plain',
];

/**
 * Whether the model nests a tool's media in its `functionResponse` (Gemini 3 and later, as
 * `gemini-3-pro-preview` or `models/gemini-3.1-flash`); older models get them beside it.
 */
export function nestsFunctionResponseMedia(modelId: string): boolean {
  const match = /(?:^|\/)gemini-(\d+)/.exec(modelId);
  return match !== null && Number(match[1]) >= 3;
}
