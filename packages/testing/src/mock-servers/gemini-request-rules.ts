import { isRecord } from '../is-record.js';
import { geminiThoughtSignatureProblem } from './gemini-thought-signature-rules.js';

// JSON Schema keywords the `parameters` Schema (an OpenAPI 3.0 subset) rejects as unknown fields.
const UNSUPPORTED_SCHEMA_KEYS = new Set([
  '$schema',
  '$id',
  '$ref',
  '$defs',
  'definitions',
  'additionalProperties',
  'const',
  'examples',
]);

// A Part's `data` is a oneof: exactly one of these per part (`thought`, `thoughtSignature` and
// `videoMetadata` sit beside it). Field names in errors are the proto's snake_case ones.
const PART_DATA_FIELDS: Readonly<Record<string, string>> = {
  text: 'text',
  inlineData: 'inline_data',
  fileData: 'file_data',
  functionCall: 'function_call',
  functionResponse: 'function_response',
  executableCode: 'executable_code',
  codeExecutionResult: 'code_execution_result',
};

// The media types the API documents for images, documents, audio and video. This list is the
// mock's own, written from the API's documentation rather than imported from the adapter, so an
// adapter that declares a type the API refuses is caught.
const MEDIA_TYPES: ReadonlySet<string> = new Set([
  'image/png',
  'image/jpeg',
  'image/webp',
  'image/heic',
  'image/heif',
  'application/pdf',
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
]);

// What a multimodal function response (Gemini 3) may nest: images and documents, inline only.
const FUNCTION_RESPONSE_MEDIA_TYPES: ReadonlySet<string> = new Set([
  'image/png',
  'image/jpeg',
  'image/webp',
  'application/pdf',
  'text/plain',
]);

const RESPONSE_MIME_TYPES = [
  'text/plain',
  'application/json',
  'application/xml',
  'application/yaml',
  'text/x.enum',
];

/**
 * The largest request the API takes, inline data included: 100 MB since January 2026 (it was
 * 20 MB). Measured as the JSON body's length.
 */
export const GEMINI_REQUEST_SIZE_LIMIT = 100 * 1024 * 1024;

// Proto JSON bytes: standard or URL-safe base64, padded or not.
const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;

const partsOf = (content: unknown): Record<string, unknown>[] =>
  isRecord(content) && Array.isArray(content.parts) ? content.parts.filter(isRecord) : [];

const count = (parts: Record<string, unknown>[], key: string) => parts.filter((part) => key in part).length;

function schemaProblem(schema: unknown, path: string): string | undefined {
  if (Array.isArray(schema)) {
    for (const [index, item] of schema.entries()) {
      const problem = schemaProblem(item, `${path}[${index}]`);
      if (problem) return problem;
    }
    return undefined;
  }
  if (!isRecord(schema)) return undefined;
  for (const [key, value] of Object.entries(schema)) {
    if (UNSUPPORTED_SCHEMA_KEYS.has(key)) {
      return `Invalid JSON payload received. Unknown name "${key}" at '${path}': Cannot find field.`;
    }
    if (key === 'type' && typeof value !== 'string') {
      return `Invalid JSON payload received. Proto field is not repeating, cannot start list at '${path}.type'.`;
    }
    // `properties` maps names to schemas: the names themselves are not keywords.
    const children = key === 'properties' && isRecord(value) ? Object.values(value) : [value];
    for (const child of children) {
      const problem = schemaProblem(child, `${path}.${key}`);
      if (problem) return problem;
    }
  }
  return undefined;
}

function base64Problem(data: unknown, path: string): string | undefined {
  const text = typeof data === 'string' ? data : '';
  const unpadded = text.replace(/=+$/, '');
  if (text !== '' && BASE64.test(text) && unpadded.length % 4 !== 1) return undefined;
  return `Invalid value at '${path}' (TYPE_BYTES), Base64 decoding failed for "${text.slice(0, 40)}"`;
}

function mimeTypeProblem(mimeType: unknown, path: string, allowed: ReadonlySet<string>): string | undefined {
  if (typeof mimeType !== 'string' || mimeType === '')
    return `* GenerateContentRequest.${path}: mime_type must be specified.`;
  return allowed.has(mimeType) ? undefined : `Unsupported MIME type: ${mimeType}`;
}

function blobProblem(blob: unknown, path: string, allowed: ReadonlySet<string>): string | undefined {
  if (!isRecord(blob)) return `* GenerateContentRequest.${path}: inline_data must be an object.`;
  return (
    mimeTypeProblem(blob.mimeType, `${path}.mime_type`, allowed) ?? base64Problem(blob.data, `${path}.data`)
  );
}

function fileDataProblem(fileData: unknown, path: string): string | undefined {
  if (!isRecord(fileData)) return `* GenerateContentRequest.${path}: file_data must be an object.`;
  const uri = typeof fileData.fileUri === 'string' ? fileData.fileUri : '';
  // Files API URIs, YouTube and other https URLs, registered gs:// objects.
  if (!/^(https:\/\/[^\s/]+\/\S*|gs:\/\/\S+)$/.test(uri)) {
    return `* GenerateContentRequest.${path}.file_uri: Invalid or unsupported file uri: ${uri}`;
  }
  return mimeTypeProblem(fileData.mimeType, `${path}.mime_type`, MEDIA_TYPES);
}

/** Gemini 3's multimodal function responses: each nested part is inline media the API takes there. */
function functionResponsePartsProblem(parts: unknown, path: string): string | undefined {
  if (parts === undefined) return undefined;
  if (!Array.isArray(parts)) return `* GenerateContentRequest.${path}: parts must be a list.`;
  for (const [index, part] of parts.entries()) {
    const at = `${path}[${index}]`;
    if (isRecord(part) && 'fileData' in part) {
      return `* GenerateContentRequest.${at}.file_data: file_data is not supported in Gemini API.`;
    }
    const problem = blobProblem(
      isRecord(part) ? part.inlineData : undefined,
      `${at}.inline_data`,
      FUNCTION_RESPONSE_MEDIA_TYPES,
    );
    if (problem) return problem;
  }
  return undefined;
}

/** One part: exactly one `data` field, and media with a type the API takes and bytes that decode. */
function partProblem(part: Record<string, unknown>, path: string): string | undefined {
  const fields = Object.keys(part).filter((key) => Object.hasOwn(PART_DATA_FIELDS, key));
  if (fields.length === 0) {
    return `* GenerateContentRequest.${path}.data: required oneof field 'data' must have one initialized field`;
  }
  if (fields.length > 1) {
    return `Invalid value at '${path}' (oneof), oneof field 'data' is already set. Cannot overwrite with '${PART_DATA_FIELDS[fields[1] as string]}'`;
  }
  if ('inlineData' in part) return blobProblem(part.inlineData, `${path}.inline_data`, MEDIA_TYPES);
  if ('fileData' in part) return fileDataProblem(part.fileData, `${path}.file_data`);
  if (isRecord(part.functionResponse)) {
    return functionResponsePartsProblem(part.functionResponse.parts, `${path}.function_response.parts`);
  }
  return undefined;
}

/** Structured output: a known response type, and a schema only with JSON (or enum) output. */
function generationConfigProblem(config: unknown): string | undefined {
  if (!isRecord(config)) return undefined;
  const { responseMimeType, responseSchema, responseJsonSchema } = config;
  if (responseMimeType !== undefined && !RESPONSE_MIME_TYPES.includes(String(responseMimeType))) {
    return `* GenerateContentRequest.generation_config.response_mime_type: allowed mimetypes are ${RESPONSE_MIME_TYPES.map((type) => `\`${type}\``).join(', ')}.`;
  }
  if (responseSchema !== undefined && responseJsonSchema !== undefined) {
    return '* GenerateContentRequest.generation_config.response_schema: response_schema and response_json_schema cannot both be set.';
  }
  if (
    (responseSchema !== undefined || responseJsonSchema !== undefined) &&
    responseMimeType !== 'application/json' &&
    responseMimeType !== 'text/x.enum'
  ) {
    return '* GenerateContentRequest.generation_config.response_mime_type: response_mime_type must be application/json or text/x.enum when a response schema is set.';
  }
  return responseSchema === undefined
    ? undefined
    : schemaProblem(responseSchema, 'generation_config.response_schema');
}

/** The JSON body's length, counted without building the text (a body may hold 100 MB of base64). */
function jsonLength(value: unknown): number {
  if (typeof value === 'string') return value.length + 2;
  if (Array.isArray(value)) return value.reduce<number>((sum, item) => sum + jsonLength(item) + 1, 2);
  if (isRecord(value)) {
    return Object.entries(value).reduce((sum, [key, item]) => sum + key.length + 4 + jsonLength(item), 2);
  }
  return String(value).length;
}

/**
 * The request rules generativelanguage.googleapis.com enforces that adapters get wrong in
 * practice: the request size limit, roles `user`/`model` (and the legacy `function`), no empty
 * `parts`, exactly one data field per part, media of a type the API takes with base64 that
 * decodes (and `file_uri`s it can fetch), as many `functionResponse` parts as the preceding turn
 * had `functionCall`s, tool `parameters` and `responseSchema` limited to its OpenAPI Schema
 * subset, a response schema only with JSON output, and thought signatures (base64; on Gemini 3
 * the first function call of each step of the current turn signed, see
 * `geminiThoughtSignatureProblem`). `route.model` is the model the path names. Returns the API's
 * error message, or `undefined` when the body passes. The list with sources:
 * `packages/testing/mock-rules/gemini.md`.
 */
export function geminiRequestProblem(body: unknown, route?: { model: string }): string | undefined {
  if (jsonLength(body) > GEMINI_REQUEST_SIZE_LIMIT) {
    return `Request payload size exceeds the limit: ${GEMINI_REQUEST_SIZE_LIMIT} bytes.`;
  }
  if (!isRecord(body) || !Array.isArray(body.contents) || body.contents.length === 0) {
    return '* GenerateContentRequest.contents: contents is not specified';
  }
  for (const [index, part] of partsOf(body.systemInstruction).entries()) {
    const problem = partProblem(part, `system_instruction.parts[${index}]`);
    if (problem) return problem;
  }
  for (const [index, content] of body.contents.entries()) {
    const role = isRecord(content) ? content.role : undefined;
    // `function` is the legacy role older SDKs give function responses; the API still takes it.
    if (role !== undefined && role !== 'user' && role !== 'model' && role !== 'function') {
      return 'Please use a valid role: user, model.';
    }
    if (partsOf(content).length === 0) {
      return `* GenerateContentRequest.contents[${index}].parts: contents.parts must not be empty.`;
    }
    for (const [partIndex, part] of partsOf(content).entries()) {
      const problem = partProblem(part, `contents[${index}].parts[${partIndex}]`);
      if (problem) return problem;
    }
    const calls = index > 0 ? count(partsOf(body.contents[index - 1]), 'functionCall') : 0;
    const responses = count(partsOf(content), 'functionResponse');
    if ((calls > 0 || responses > 0) && role !== 'model' && responses !== calls) {
      return 'Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.';
    }
  }
  const signatureProblem = geminiThoughtSignatureProblem(body.contents, route?.model ?? '');
  if (signatureProblem) return signatureProblem;
  const tools = Array.isArray(body.tools) ? body.tools.filter(isRecord) : [];
  for (const [toolIndex, tool] of tools.entries()) {
    const declarations = Array.isArray(tool.functionDeclarations) ? tool.functionDeclarations : [];
    for (const [index, declaration] of declarations.entries()) {
      const parameters = isRecord(declaration) ? declaration.parameters : undefined;
      const problem = schemaProblem(
        parameters,
        `tools[${toolIndex}].function_declarations[${index}].parameters`,
      );
      if (problem) return problem;
    }
  }
  return generationConfigProblem(body.generationConfig);
}
