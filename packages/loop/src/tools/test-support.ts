import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { CairnError, type Tool, type ToolContext, validateStandardSchema } from '@cairn/core';
import { afterEach, beforeEach, expect } from 'vitest';

/** A temp workspace and a temp directory outside it, made before each test and removed after. */
export function useTempWorkspace(): { readonly root: string; readonly outside: string } {
  const dirs = { root: '', outside: '' };
  beforeEach(async () => {
    dirs.root = await realpath(await mkdtemp(join(tmpdir(), 'cairn-tools-workspace-')));
    dirs.outside = await realpath(await mkdtemp(join(tmpdir(), 'cairn-tools-outside-')));
  });
  afterEach(async () => {
    await rm(dirs.root, { recursive: true, force: true });
    await rm(dirs.outside, { recursive: true, force: true });
  });
  return dirs;
}

/** Writes `files` (path → content) under `dir`, creating directories. */
export async function writeFiles(dir: string, files: Record<string, string | Uint8Array>): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), content);
  }
}

/** Calls a tool as the host would: input parsed by its schema. */
export async function callTool<Input, Output>(
  tool: Tool<Input, Output>,
  args: unknown,
  context: Partial<ToolContext> = {},
): Promise<Output> {
  const parsed = await validateStandardSchema(tool.input, args);
  if (!parsed.success) throw new Error(`invalid arguments: ${JSON.stringify(parsed.issues)}`);
  return tool.execute(parsed.value, {
    toolCallId: 'c1',
    signal: new AbortController().signal,
    ...context,
  });
}

/** What the call threw, checked to be a `CairnError` with `code`. */
export async function failureOf(call: Promise<unknown>, code: CairnError['code']): Promise<CairnError> {
  const error = await call.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(CairnError.is(error), `expected a CairnError, got ${String(error)}`).toBe(true);
  expect((error as CairnError).code).toBe(code);
  return error as CairnError;
}

/**
 * `file` outside the workspace (with `content`), a `file-link` to it and a `dir-link` to its
 * directory inside; returns the ways to reach it from the workspace, each of which must be refused.
 */
export async function escapesTo(
  dirs: { readonly root: string; readonly outside: string },
  file: string,
  content: string,
): Promise<string[]> {
  await writeFiles(dirs.outside, { [file]: content });
  await symlink(join(dirs.outside, file), join(dirs.root, 'file-link'));
  await symlink(dirs.outside, join(dirs.root, 'dir-link'));
  return [`../${file}`, join(dirs.outside, file), 'file-link', `dir-link/${file}`];
}
