// The runnable code of a guide in docs/, and how it is run.
//
// In a guide, ```js blocks run; ```ts, ```sh and ```text blocks do not.
// - A ```js block whose first line is `// <name>.mjs …` is a module, written to that file: the
//   guide's other blocks import it (and the conformance kits load it in child processes).
// - Every other ```js block is a script of its own (copy one and it runs), followed by "It prints:"
//   and a ```text block with its exact output. The scripts run one after another with `node`, in
//   one fresh directory inside this package, so that `@cairn/*` imports resolve to the workspace
//   packages as an installed user's would, and files one script writes are there for the next.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type NodeScriptRun, runNodeScript } from '@cairn/testing';

const packageDir = fileURLToPath(new URL('.', import.meta.url));
const docsDir = fileURLToPath(new URL('../../docs/', import.meta.url));

export interface GuideScript {
  /** `step-<n>.mjs`. */
  name: string;
  code: string;
  /** The ```text block after the script's "It prints:". */
  expected: string;
}

export interface GuideCode {
  /** Named modules (`// acme-adapter.mjs` blocks), by file name. */
  files: Map<string, string>;
  /** The other ```js blocks, in order. */
  scripts: GuideScript[];
}

const FENCE = /^```(\w*)\n([\s\S]*?)^```$/gm;
const NAMED_MODULE = /^\/\/ ([\w.-]+\.mjs)\b/;

/** The runnable code of `docs/<guide>.md` and the output it documents. */
export async function readGuideCode(guide: string): Promise<GuideCode> {
  const markdown = await readFile(join(docsDir, `${guide}.md`), 'utf8');
  const files = new Map<string, string>();
  const scripts: GuideScript[] = [];
  const fail = (problem: string) => new Error(`docs/${guide}.md: ${problem}`);
  let waiting: Omit<GuideScript, 'expected'> | undefined;
  for (const fence of markdown.matchAll(FENCE)) {
    const [, language, code = ''] = fence;
    const printed = language === 'text' && /It prints:\s*$/.test(markdown.slice(0, fence.index));
    if (printed) {
      if (waiting === undefined) throw fail('an "It prints:" block follows no ```js script');
      scripts.push({ ...waiting, expected: code });
      waiting = undefined;
    }
    if (language !== 'js') continue;
    const name = NAMED_MODULE.exec(code)?.[1];
    if (name !== undefined) {
      if (files.has(name)) throw fail(`two blocks are named ${name}`);
      files.set(name, code);
      continue;
    }
    if (waiting !== undefined) throw fail(`${waiting.name} has no "It prints:" block`);
    waiting = { name: `step-${scripts.length + 1}.mjs`, code };
  }
  if (waiting !== undefined) throw fail(`${waiting.name} has no "It prints:" block`);
  if (scripts.length === 0) throw fail('no runnable ```js block');
  return { files, scripts };
}

/** Writes the guide's modules and scripts into a fresh directory inside this package; returns it. */
export async function writeGuideCode(guide: string, code: GuideCode): Promise<string> {
  const runs = join(packageDir, '.guide-runs');
  await mkdir(runs, { recursive: true });
  const dir = await mkdtemp(join(runs, `${guide}-`));
  for (const [name, text] of code.files) await writeFile(join(dir, name), text);
  for (const script of code.scripts) await writeFile(join(dir, script.name), script.code);
  return dir;
}

export interface ScriptRun extends NodeScriptRun {
  script: GuideScript;
}

export interface GuideRun {
  /** Where it ran; removed when every script printed what the guide says, kept otherwise. */
  dir: string;
  /** One per script, in order, up to the first that failed or printed something else. */
  runs: ScriptRun[];
}

/** Runs the guide's scripts in order with `node`, stopping at the first that goes wrong. */
export async function runGuide(guide: string, env: Record<string, string> = {}): Promise<GuideRun> {
  const code = await readGuideCode(guide);
  const dir = await writeGuideCode(guide, code);
  const runs: ScriptRun[] = [];
  for (const script of code.scripts) {
    const run = await runNodeScript(join(dir, script.name), [], {
      cwd: dir,
      env: { ...(process.env as Record<string, string>), ...env },
      timeoutMs: 90_000,
    });
    runs.push({ ...run, script });
    if (run.code !== 0 || run.stdout !== script.expected) return { dir, runs };
  }
  await rm(dir, { recursive: true, force: true });
  return { dir, runs };
}
