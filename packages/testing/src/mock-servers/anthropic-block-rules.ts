import { base64ToBytes, imageSize, sniffMediaType } from '@cairn/core';
import { isRecord } from '../is-record.js';

type Block = Record<string, unknown>;

// Limits from Anthropic's vision, PDF, prompt-caching and structured-outputs documentation.
const IMAGE_TYPES: ReadonlySet<string> = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);
const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
const MAX_IMAGE_SIDE = 8000;
// With more than 20 images in a request, each may be at most 2000 px a side.
const MANY_IMAGES = 20;
const MAX_IMAGE_SIDE_WHEN_MANY = 2000;
const MAX_IMAGES = 100;
const MAX_CACHE_BREAKPOINTS = 4;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

const blocksOf = (content: unknown): Block[] => (Array.isArray(content) ? content.filter(isRecord) : []);

function base64Problem(path: string, data: unknown): string | undefined {
  if (typeof data !== 'string' || data === '') return `${path}.data: Field required`;
  if (data.length % 4 !== 0 || !BASE64.test(data)) return `${path}.data: invalid base64 data`;
  return undefined;
}

function imageProblem(path: string, source: unknown, maxSide: number): string | undefined {
  if (!isRecord(source)) return `${path}.source: Field required`;
  if (source.type === 'url') {
    return typeof source.url === 'string' && /^https?:\/\//.test(source.url)
      ? undefined
      : `${path}.source.url: Input should be a valid URL`;
  }
  if (source.type !== 'base64') return `${path}.source.type: Input should be 'base64', 'url' or 'file'`;
  const mediaType = String(source.media_type);
  if (!IMAGE_TYPES.has(mediaType)) {
    return `${path}.source.media_type: Input should be 'image/jpeg', 'image/png', 'image/gif' or 'image/webp'`;
  }
  const bad = base64Problem(`${path}.source`, source.data);
  if (bad !== undefined) return bad;
  const bytes = base64ToBytes(source.data as string);
  if (bytes.length > MAX_IMAGE_BYTES) {
    return `${path}.source.base64: image exceeds 5 MB maximum: ${bytes.length} bytes > ${MAX_IMAGE_BYTES} bytes`;
  }
  const sniffed = sniffMediaType(bytes);
  if (sniffed !== mediaType) {
    return `${path}.source.base64.data: The image was specified using the ${mediaType} media type, but the image appears to be a ${sniffed ?? 'unknown'} image`;
  }
  const size = imageSize(bytes);
  if (size !== undefined && Math.max(size.width, size.height) > maxSide) {
    return `${path}.source.base64.data: At least one of the image dimensions exceed max allowed size${maxSide === MAX_IMAGE_SIDE ? '' : ' for many-image requests'}: ${maxSide} pixels`;
  }
  return undefined;
}

function documentProblem(path: string, source: unknown): string | undefined {
  if (!isRecord(source)) return `${path}.source: Field required`;
  switch (source.type) {
    case 'url':
      return typeof source.url === 'string' && /^https?:\/\//.test(source.url)
        ? undefined
        : `${path}.source.url: Input should be a valid URL`;
    case 'text':
      if (source.media_type !== 'text/plain')
        return `${path}.source.media_type: Input should be 'text/plain'`;
      return typeof source.data === 'string' ? undefined : `${path}.source.data: Field required`;
    case 'base64': {
      if (source.media_type !== 'application/pdf') {
        return `${path}.source.media_type: Input should be 'application/pdf'`;
      }
      const bad = base64Problem(`${path}.source`, source.data);
      if (bad !== undefined) return bad;
      return sniffMediaType(base64ToBytes(source.data as string)) === 'application/pdf'
        ? undefined
        : `${path}.source.base64.data: The PDF specified was not valid.`;
    }
    default:
      return `${path}.source.type: Input should be 'base64', 'text', 'content', 'url' or 'file'`;
  }
}

function mediaBlockProblem(path: string, block: Block, maxSide: number): string | undefined {
  if (block.type === 'image') return imageProblem(path, block.source, maxSide);
  if (block.type === 'document') return documentProblem(path, block.source);
  return undefined;
}

function cacheControlProblem(path: string, cacheControl: unknown): string | undefined {
  if (!isRecord(cacheControl) || cacheControl.type !== 'ephemeral') {
    return `${path}.cache_control.type: Input should be 'ephemeral'`;
  }
  const { ttl } = cacheControl;
  if (ttl !== undefined && ttl !== '5m' && ttl !== '1h')
    return `${path}.cache_control.ttl: Input should be '5m' or '1h'`;
  return undefined;
}

/** Every block of the prompt in cache order (tools, system, messages), with its path. */
function promptBlocks(body: Record<string, unknown>): { path: string; block: Block }[] {
  const found: { path: string; block: Block }[] = [];
  for (const [index, tool] of (Array.isArray(body.tools) ? body.tools : []).entries()) {
    if (isRecord(tool)) found.push({ path: `tools.${index}`, block: tool });
  }
  for (const [index, block] of blocksOf(body.system).entries())
    found.push({ path: `system.${index}`, block });
  for (const [index, message] of (Array.isArray(body.messages) ? body.messages : []).entries()) {
    if (!isRecord(message)) continue;
    for (const [at, block] of blocksOf(message.content).entries()) {
      const path = `messages.${index}.content.${at}`;
      found.push({ path, block });
      for (const [innerAt, inner] of (block.type === 'tool_result'
        ? blocksOf(block.content)
        : []
      ).entries()) {
        found.push({ path: `${path}.content.${innerAt}`, block: inner });
      }
    }
  }
  return found;
}

function messagePartProblem(body: Record<string, unknown>): string | undefined {
  const messages = (Array.isArray(body.messages) ? body.messages : []).map((message) =>
    isRecord(message) ? message : {},
  );
  for (const [index, block] of blocksOf(body.system).entries()) {
    if (block.type !== 'text') return `system.${index}.type: Input should be 'text'`;
  }
  for (const [index, message] of messages.entries()) {
    for (const [at, block] of blocksOf(message.content).entries()) {
      const path = `messages.${index}.content.${at}`;
      if ((block.type === 'image' || block.type === 'document') && message.role !== 'user') {
        return `${path}: ${block.type} blocks are only allowed in user messages and tool results`;
      }
      if (block.type === 'tool_result') {
        for (const [innerAt, inner] of blocksOf(block.content).entries()) {
          if (!['text', 'image', 'document', 'search_result'].includes(String(inner.type))) {
            return `${path}.content.${innerAt}.type: Input should be 'text', 'image', 'document' or 'search_result'`;
          }
        }
      }
    }
  }
  return undefined;
}

function outputFormatProblem(body: Record<string, unknown>): string | undefined {
  const config = body.output_config;
  if (config === undefined || config === null) return undefined;
  if (!isRecord(config)) return 'output_config: Input should be a valid dictionary';
  const format = config.format;
  if (format === undefined || format === null) return undefined;
  if (!isRecord(format) || format.type !== 'json_schema') {
    return "output_config.format.type: Input should be 'json_schema'";
  }
  if (!isRecord(format.schema)) return 'output_config.format.schema: Field required';
  const open = findOpenObject(format.schema, 'schema');
  if (open !== undefined) {
    return `output_config.format.schema: For 'object' type, 'additionalProperties' must be explicitly set to false (at ${open})`;
  }
  const messages = Array.isArray(body.messages) ? body.messages : [];
  const last = messages.at(-1);
  if (isRecord(last) && last.role === 'assistant') {
    return 'Prefilling assistant messages is not supported when using structured outputs (output_config.format).';
  }
  return undefined;
}

// Structured outputs require every object schema to close its properties.
function findOpenObject(schema: unknown, path: string): string | undefined {
  if (Array.isArray(schema)) {
    for (const [index, item] of schema.entries()) {
      const open = findOpenObject(item, `${path}.${index}`);
      if (open !== undefined) return open;
    }
    return undefined;
  }
  if (!isRecord(schema)) return undefined;
  if (schema.type === 'object' && schema.additionalProperties !== false) return path;
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'enum' || key === 'const' || key === 'default' || key === 'examples') continue;
    const open = findOpenObject(value, `${path}.${key}`);
    if (open !== undefined) return open;
  }
  return undefined;
}

/**
 * The documented rules for images, documents, cache breakpoints and structured output: image
 * media types, base64 that decodes and matches its media type, at most 5 MB and 8000 px a side
 * (2000 px when the request has more than 20 images), at most 100 images; documents as PDF (base64 or URL) or plain text; images and documents only in
 * user turns and tool results; at most four `cache_control` breakpoints, `ephemeral`, with `1h`
 * ones before `5m` ones; `output_config.format` a `json_schema` whose objects all set
 * `additionalProperties: false`, without a prefill; no thinking with a forced tool choice.
 */
export function anthropicBlockProblem(body: Record<string, unknown>): string | undefined {
  const misplaced = messagePartProblem(body);
  if (misplaced !== undefined) return misplaced;
  const blocks = promptBlocks(body);
  const images = blocks.filter(({ block }) => block.type === 'image').length;
  const maxSide = images > MANY_IMAGES ? MAX_IMAGE_SIDE_WHEN_MANY : MAX_IMAGE_SIDE;
  let breakpoints = 0;
  let seenShortTtl = false;
  for (const { path, block } of blocks) {
    const media = mediaBlockProblem(path, block, maxSide);
    if (media !== undefined) return media;
    if (block.cache_control === undefined || block.cache_control === null) continue;
    const cache = cacheControlProblem(path, block.cache_control);
    if (cache !== undefined) return cache;
    if (block.type === 'thinking' || block.type === 'redacted_thinking') {
      return `${path}.cache_control: thinking blocks cannot be cached directly`;
    }
    breakpoints += 1;
    const ttl = (block.cache_control as Block).ttl ?? '5m';
    if (ttl === '1h' && seenShortTtl) {
      return `${path}.cache_control: a ttl='1h' cache_control block must not come after a ttl='5m' cache_control block`;
    }
    if (ttl === '5m') seenShortTtl = true;
  }
  if (images > MAX_IMAGES) return `Too many images: ${images} > ${MAX_IMAGES} maximum per request`;
  if (breakpoints > MAX_CACHE_BREAKPOINTS) {
    return `A maximum of ${MAX_CACHE_BREAKPOINTS} blocks with cache_control may be provided. Found ${breakpoints}.`;
  }
  const choice = body.tool_choice;
  const forced = isRecord(choice) && (choice.type === 'any' || choice.type === 'tool');
  if (forced && isRecord(body.thinking) && body.thinking.type !== 'disabled') {
    return 'Thinking may not be enabled when tool_choice forces tool use.';
  }
  return outputFormatProblem(body);
}
