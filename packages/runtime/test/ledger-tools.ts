import { defineTool } from '@cairn/loop';
import { createGate } from '@cairn/testing';
import { expect, vi } from 'vitest';
import { z } from 'zod';

/** A log of what the tools below really did: a side effect the tests count. */
export interface Effects {
  lines: string[];
}

/** `deploy`: needs approval, not idempotent; appends `deployed <target>` to `effects`. */
export function deployTool(effects: Effects) {
  return defineTool({
    name: 'deploy',
    description: 'Deploys to a target',
    category: 'shell',
    input: z.object({ target: z.enum(['staging', 'production']) }),
    needsApproval: true,
    execute: ({ target }) => {
      effects.lines.push(`deployed ${target}`);
      return `deployed to ${target}`;
    },
  });
}

/**
 * `send_email` (not idempotent) and `fetch_page` (idempotent) record that they started; the first
 * call of each then waits for `release` (a crash: the test abandons the runtime while it waits).
 */
export function hangingTools(effects: Effects) {
  const started = createGate();
  const release = createGate();
  const hang = (name: string) => async () => {
    effects.lines.push(name);
    if (effects.lines.filter((line) => line === name).length === 1) {
      started.open();
      await release.promise;
    }
    return `${name} done`;
  };
  return {
    started,
    release,
    tools: [
      defineTool({
        name: 'send_email',
        description: 'Sends an email',
        category: 'web',
        input: z.object({}),
        execute: hang('send_email'),
      }),
      defineTool({
        name: 'fetch_page',
        description: 'Fetches a page',
        category: 'web',
        idempotent: true,
        input: z.object({}),
        execute: hang('fetch_page'),
      }),
    ],
  };
}

/**
 * Waits (generously: CI machines stall) until `effects` holds `expected`, in any order. A turn that
 * ends first fails the wait at once, so its own error is what the test reports.
 */
export async function untilEffects(effects: Effects, expected: string[], turn: Promise<unknown>) {
  const ended = turn.then(() => {
    throw new Error(`the turn ended before its tools started; effects: ${effects.lines.join(', ')}`);
  });
  await Promise.race([
    vi.waitFor(() => expect([...effects.lines].sort()).toEqual([...expected].sort()), {
      timeout: 20_000,
      interval: 10,
    }),
    ended,
  ]);
}
