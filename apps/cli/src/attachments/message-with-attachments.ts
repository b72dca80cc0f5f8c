import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { ContentPart, FilePart, ImagePart, MessageContent } from '@cairn/core';
import { readAttachment } from './read-attachment.js';

// `@word` at the start of the line or after a space; what follows up to the next space is the path.
const MENTION = /(?:^|\s)@(\S+)/g;
const TRAILING_PUNCTUATION = /[.,;:!?)\]]+$/;

/**
 * The paths `@path` tokens of a chat line name. A token is a path when that file exists, or when it
 * looks like one (holds a `/` or ends in an extension: `@shot.png`, `@docs/a.pdf` — a missing one is
 * then an error, not text); `@alice` stays text. Punctuation ending a sentence is not part of it.
 */
export function mentionedPaths(line: string, cwd: string): string[] {
  const paths: string[] = [];
  for (const match of line.matchAll(MENTION)) {
    const token = match[1] as string;
    const path = existsSync(resolve(cwd, token)) ? token : token.replace(TRAILING_PUNCTUATION, '');
    if (path !== '' && (existsSync(resolve(cwd, path)) || path.includes('/') || /\.[A-Za-z0-9]+$/.test(path)))
      paths.push(path);
  }
  return paths;
}

/** `text` alone, or `text` followed by the attached parts. */
export function withParts(text: string, parts: readonly (ImagePart | FilePart)[]): MessageContent {
  if (parts.length === 0) return text;
  const content: ContentPart[] = text.trim() === '' ? [] : [{ type: 'text', text }];
  return [...content, ...parts];
}

/**
 * A chat line as a message: its text, with the files its `@path` tokens name attached after it (the
 * tokens stay in the text, so the model reads which file is which). Each file is read and checked
 * (`readAttachment`); the first bad one fails the whole line, so nothing is sent.
 */
export async function lineWithAttachments(
  line: string,
  cwd: string,
  attached: readonly (ImagePart | FilePart)[] = [],
): Promise<MessageContent> {
  const paths = [...new Set(mentionedPaths(line, cwd))];
  const parts = [...attached];
  for (const path of paths) parts.push(await readAttachment(path, cwd));
  return withParts(line, parts);
}
