import { realpathSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, isAbsolute, relative, resolve } from 'node:path';
import {
  ATTACHMENT_MAX_BYTES,
  CairnError,
  createAttachmentPart,
  type FilePart,
  type ImagePart,
} from '@cairn/core';
import { cliFailure } from '../cli-error.js';

const FIX = 'attach a PNG, JPEG, GIF, WebP, PDF or text file under the working directory, up to 20 MB';

const refuse = (path: string, problem: string) =>
  cliFailure('INVALID_ARGUMENT', `cannot attach ${path}: ${problem}`, FIX);

/**
 * The file at `path` (relative to `cwd`) as an image or file part, checked before anything is sent
 * or stored: it must exist, be a regular file and lie under `cwd` once symlinks are resolved (a link
 * out of the working directory is refused like `../secret.png`), and pass `createAttachmentPart`
 * (size, media type, bytes matching it, no SVG with script). Every failure is one
 * `INVALID_ARGUMENT` naming the path as given.
 */
export async function readAttachment(
  path: string,
  cwd: string,
  maxBytes = ATTACHMENT_MAX_BYTES,
): Promise<ImagePart | FilePart> {
  const root = realpathSync(cwd);
  const outside = (target: string) => {
    const where = relative(root, target);
    return where === '' || where.startsWith('..') || isAbsolute(where);
  };
  const given = resolve(root, path);
  if (outside(given)) throw refuse(path, `it is outside the working directory ${cwd}`);
  let real: string;
  try {
    real = realpathSync(given);
  } catch {
    throw refuse(path, 'no such file');
  }
  // A symlink in the working directory may point out of it.
  if (outside(real)) throw refuse(path, `it links outside the working directory ${cwd}`);
  const stat = statSync(real);
  if (!stat.isFile()) throw refuse(path, 'not a file');
  // Checked before reading, so a 100 MB file is never read into memory.
  if (stat.size > maxBytes) throw refuse(path, `${stat.size} bytes is over the ${maxBytes}-byte limit`);
  const bytes = new Uint8Array(await readFile(real));
  const fileName = basename(real);
  try {
    return createAttachmentPart(bytes, { fileName, maxBytes });
  } catch (error) {
    if (!CairnError.is(error)) throw error;
    // The core names the file by its base name; say the path the user typed instead.
    throw refuse(
      path,
      error.message.startsWith(`${fileName}: `) ? error.message.slice(fileName.length + 2) : error.message,
    );
  }
}
