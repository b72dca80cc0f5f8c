#!/usr/bin/env node
// A host process that runs the (built) executor on the fake agent, configured by the FAKE_AGENT_*
// variables it passes on, and exits (without aborting) half a second after the agent's first tool
// call: what it started must not outlive it.
import { createMemoryConversationStore } from '@cairn/storage';
import { createAgentExecutor } from '../dist/index.js';

const executor = createAgentExecutor({
  store: createMemoryConversationStore(),
  agent: 'claude-code',
  cwd: process.cwd(),
  command: process.execPath,
  commandArgs: [new URL('./fake-agent.mjs', import.meta.url).pathname],
});
void executor.run({
  prompt: 'Wait',
  onEvent: (event) => {
    if (event.type === 'tool_use') setTimeout(() => process.exit(0), 500);
  },
});
