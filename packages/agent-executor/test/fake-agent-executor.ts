import { createFsConversationStore } from '@cairn/store-fs';
import { type AgentCliName, createAgentExecutor } from '../src/index.js';
import { fakeAgentCommand, tempDir } from './support.js';

/**
 * An executor that runs the fake agent as `agent` with `env` (the variables it obeys, see
 * `fake-agent.mjs`), in a fresh working directory, storing into a fresh file store.
 */
export async function fakeAgentExecutor(agent: AgentCliName, env: Record<string, string>) {
  const store = createFsConversationStore({ rootDir: await tempDir() });
  const executor = createAgentExecutor({ store, agent, cwd: await tempDir(), ...fakeAgentCommand(env) });
  return { store, executor };
}
