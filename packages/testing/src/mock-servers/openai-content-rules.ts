import { isRecord } from '../is-record.js';

// The content-part rules of Chat Completions messages, with the API's own 400 messages: parts of
// any kind only in `user` messages (text parts elsewhere), images as an https URL or a base64
// data URL of a type the vision models take whose bytes are that image type, files as a base64
// data URL of a PDF with a file name (Chat Completions takes no other file type).

const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];
const DATA_URL = /^data:([a-z]+\/[a-z0-9][a-z0-9!#$&^_.+-]*);base64,(.*)$/s;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const USER_PART_TYPES = "'text', 'image_url', 'input_audio', 'refusal', 'audio', and 'file'";

const isBase64 = (data: string) => data.length > 0 && data.length % 4 === 0 && BASE64.test(data);

// The first bytes of each image type: OpenAI decodes the image and refuses what is not one.
const MAGIC: Readonly<Record<string, (bytes: Buffer) => boolean>> = {
  'image/png': (bytes) =>
    bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  'image/jpeg': (bytes) => bytes.subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff])),
  'image/gif': (bytes) => ['GIF87a', 'GIF89a'].includes(bytes.subarray(0, 6).toString('latin1')),
  'image/webp': (bytes) =>
    bytes.subarray(0, 4).toString('latin1') === 'RIFF' && bytes.subarray(8, 12).toString('latin1') === 'WEBP',
};

function imageUrlProblem(url: unknown, path: string): string | undefined {
  if (typeof url !== 'string' || url === '') return `Missing required parameter: '${path}'.`;
  const data = DATA_URL.exec(url);
  if (data === null) {
    if (url.startsWith('data:') || !URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)) {
      return `Invalid '${path}'. Expected a valid URL, but got a value with an invalid format.`;
    }
    return undefined;
  }
  const [, mediaType = '', base64 = ''] = data;
  const example = "(e.g. 'data:image/png;base64,aW1nIGJ5dGVzIGhlcmU=')";
  if (!IMAGE_TYPES.includes(mediaType)) {
    return `Invalid '${path}'. Expected a base64-encoded data URL with an image MIME type ${example}, but got unsupported MIME type '${mediaType}'.`;
  }
  if (!isBase64(base64)) {
    return `Invalid '${path}'. Expected a base64-encoded data URL with an image MIME type ${example}, but got value starting with '${base64.slice(0, 16)}'.`;
  }
  if (MAGIC[mediaType]?.(Buffer.from(base64, 'base64')) !== true) {
    return 'You uploaded an unsupported image. Please make sure your image is valid.';
  }
  return undefined;
}

function fileProblem(file: unknown, path: string): string | undefined {
  if (!isRecord(file)) return `Missing required parameter: '${path}'.`;
  if (typeof file.file_id === 'string' && file.file_data === undefined) return undefined;
  if (typeof file.file_data !== 'string') return `Missing required parameter: '${path}.file_data'.`;
  const data = DATA_URL.exec(file.file_data);
  const expected = `Invalid '${path}.file_data'. Expected a base64-encoded data URL with an application/pdf MIME type (e.g. 'data:application/pdf;base64,SGVsbG8sIFdvcmxkIQ==')`;
  if (data === null || !isBase64(data[2] ?? '')) {
    return `${expected}, but got value starting with '${file.file_data.slice(0, 16)}'.`;
  }
  if (data[1] !== 'application/pdf') return `${expected}, but got unsupported MIME type '${data[1]}'.`;
  if (typeof file.filename !== 'string' || file.filename === '') {
    return `Missing required parameter: '${path}.filename'.`;
  }
  return undefined;
}

function userPartProblem(part: unknown, path: string): string | undefined {
  const type = isRecord(part) ? part.type : undefined;
  if (!isRecord(part) || typeof type !== 'string') return `Missing required parameter: '${path}.type'.`;
  switch (type) {
    case 'text':
      return typeof part.text === 'string' ? undefined : `Missing required parameter: '${path}.text'.`;
    case 'image_url':
      return imageUrlProblem(
        isRecord(part.image_url) ? part.image_url.url : undefined,
        `${path}.image_url.url`,
      );
    case 'file':
      return fileProblem(part.file, `${path}.file`);
    default:
      return `Invalid value: '${type}'. Supported values are: ${USER_PART_TYPES}.`;
  }
}

/** The API's message when one message's `content` breaks a part rule, else `undefined`. */
export function openAIContentProblem(message: Record<string, unknown>, index: number): string | undefined {
  const { role, content } = message;
  if (!Array.isArray(content)) return undefined;
  const path = `messages[${index}].content`;
  if (content.length === 0 && role !== 'assistant') {
    return `Invalid '${path}': empty array. Expected an array with minimum length 1, but got an empty array instead.`;
  }
  for (const [partIndex, part] of content.entries()) {
    const partPath = `${path}[${partIndex}]`;
    if (role === 'user') {
      const problem = userPartProblem(part, partPath);
      if (problem !== undefined) return problem;
      continue;
    }
    const type = isRecord(part) ? part.type : undefined;
    if (type === 'image_url') {
      return `Invalid 'messages[${index}]'. Image URLs are only allowed for messages with role 'user', but this message with role '${String(role)}' contains an image URL.`;
    }
    const allowed = role === 'assistant' ? ['text', 'refusal'] : ['text'];
    if (typeof type !== 'string' || !allowed.includes(type)) {
      return `Invalid value: '${String(type)}'. Supported values are: ${allowed.map((each) => `'${each}'`).join(' and ')}.`;
    }
    if (type === 'text' && (!isRecord(part) || typeof part.text !== 'string')) {
      return `Missing required parameter: '${partPath}.text'.`;
    }
  }
  return undefined;
}
