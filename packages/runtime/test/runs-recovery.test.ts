import type { ConversationStore, Lease } from '@cairn/core';
import { createToolHost } from '@cairn/loop';
import { ScriptedModel } from '@cairn/testing';
import { describe, expect, it, vi } from 'vitest';
import { createAgentRuntime } from '../src/index.js';
import { type Effects, hangingTools, untilEffects } from './ledger-tools.js';
import { ONE_STEP } from './runs-fixtures.js';
import { STORE_BACKENDS, useStoreBackend } from './stores.js';

// Long enough that a loaded machine's stalls do not lapse a live process's lease.
const LEASE_TTL_MS = 1_500;

/**
 * The store as a process that dies sees it: once `die()` is called its leases are never renewed or
 * released again (renewing throws; releasing does nothing), so they lapse after the ttl.
 */
function mortal(store: ConversationStore) {
  let dead = false;
  const leases = store.leases;
  const view = new Proxy(store, {
    get(target, property) {
      if (property === 'leases' && leases !== undefined) {
        return {
          read: (key: string) => leases.read(key),
          async acquire(key: string, options: { owner: string; ttlMs: number }) {
            const lease = await leases.acquire(key, options);
            if (lease === undefined) return undefined;
            const ghost: Lease = {
              key: lease.key,
              owner: lease.owner,
              epoch: lease.epoch,
              expiresAt: lease.expiresAt,
              renew: () => (dead ? Promise.reject(new Error('the process is gone')) : lease.renew()),
              release: () => (dead ? Promise.resolve() : lease.release()),
            };
            return ghost;
          },
        };
      }
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { store: view, die: () => (dead = true) };
}

describe.each(STORE_BACKENDS)('runs that move on the $name store', (backend) => {
  const { open } = useStoreBackend(backend);

  it('takes over a run whose process died mid-tool once its lease lapsed, without running the call again', async () => {
    const effects: Effects = { lines: [] };
    const hanging = hangingTools(effects);
    const tools = createToolHost(hanging.tools);
    const model = new ScriptedModel({
      turns: [
        { toolCalls: [{ id: 'e1', name: 'send_email', arguments: {} }] },
        { text: 'The email may have gone out; I will not send it twice.' },
      ],
    });
    const settings = { compression: false as const, runs: { leaseTtlMs: LEASE_TTL_MS } };
    const workflows = [{ name: 'inline', workflows: [ONE_STEP] }];
    const processA = mortal(open());
    const stopA = new AbortController();
    const runA = createAgentRuntime({ store: processA.store, model, tools, settings, workflows }).runs.start({
      workflow: 'inline/greet',
      runId: 'r1',
      signal: stopA.signal,
    });
    await untilEffects(effects, ['send_email'], runA);

    const runtimeB = createAgentRuntime({ store: open(), model, tools, settings, workflows });
    // Process A is alive and renews its lease: B leaves its run alone.
    expect(await runtimeB.runs.recover()).toEqual([]);
    processA.die();
    await vi.waitFor(
      async () => {
        const [recovered] = await runtimeB.runs.recover();
        expect(recovered).toMatchObject({ runId: 'r1', success: true });
      },
      { timeout: 20_000, interval: LEASE_TTL_MS / 3 },
    );
    expect(effects.lines).toEqual(['send_email']);
    const log = await open().load('run-r1');
    const result = log.find((message) => message.role === 'tool');
    expect(result).toMatchObject({ interrupted: true, content: expect.stringMatching(/not run again/) });
    const answers = log.filter((message) => message.role === 'assistant');
    expect(answers.at(-1)?.content).toMatch(/will not send it twice/);
    // Nothing is owed any more: another sweep leaves the run be.
    expect(await runtimeB.runs.recover()).toEqual([]);

    stopA.abort();
    hanging.release.open();
    await runA.catch(() => undefined);
  });

  it('refuses to continue a run another live process works on', async () => {
    const effects: Effects = { lines: [] };
    const hanging = hangingTools(effects);
    const tools = createToolHost(hanging.tools);
    const model = new ScriptedModel({
      turns: [{ toolCalls: [{ id: 'e1', name: 'send_email', arguments: {} }] }],
    });
    const settings = { compression: false as const, runs: { leaseTtlMs: 10_000 } };
    const workflows = [{ name: 'inline', workflows: [ONE_STEP] }];
    const stopA = new AbortController();
    const runA = createAgentRuntime({ store: open(), model, tools, settings, workflows }).runs.start({
      workflow: 'inline/greet',
      runId: 'r1',
      signal: stopA.signal,
    });
    await untilEffects(effects, ['send_email'], runA);
    const runtimeB = createAgentRuntime({ store: open(), model, tools, settings, workflows });
    await expect(runtimeB.runs.continue({ runId: 'r1', userInput: 'Hurry' })).rejects.toMatchObject({
      code: 'STORE_CONFLICT',
      message: expect.stringMatching(/another process/),
    });
    stopA.abort();
    hanging.release.open();
    await runA.catch(() => undefined);
  });
});
