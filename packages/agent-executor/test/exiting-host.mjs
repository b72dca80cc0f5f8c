#!/usr/bin/env node
// A host process that runs the (built) executor on the fake agent, configured by the FAKE_AGENT_*
// variables it passes on, and exits (without aborting) once the agent's tool is running (its pid
// written into the file named by FAKE_AGENT_TOOL_PID_FILE, watched in its directory): what it started must not outlive it.
import { readFileSync, watch } from 'node:fs';
import { dirname } from 'node:path';
import { createMemoryConversationStore } from '@cairn/storage';
import { createAgentExecutor } from '../dist/index.js';

const executor = createAgentExecutor({
  store: createMemoryConversationStore(),
  agent: 'claude-code',
  cwd: process.cwd(),
  command: process.execPath,
  commandArgs: [new URL('./fake-agent.mjs', import.meta.url).pathname],
});
const toolPidFile = process.env.FAKE_AGENT_TOOL_PID_FILE;
const exitOnceTheToolRuns = () => {
  try {
    if (readFileSync(toolPidFile, 'utf8').trim() !== '') process.exit(0);
  } catch {
    // Not written yet.
  }
};
watch(dirname(toolPidFile), exitOnceTheToolRuns);
void executor.run({ prompt: 'Wait' });
exitOnceTheToolRuns();
