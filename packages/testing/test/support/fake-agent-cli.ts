import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AgentCliDefinition } from '../../src/agent-clis/agent-cli-definition.js';
import { claudeCodeAgentCli } from '../../src/agent-clis/claude-code-agent-cli.js';

// A stand-in for a real agent CLI: it prints an init line, makes one Messages API request to
// ANTHROPIC_BASE_URL with the prompt, prints the answer, and with `[wait]` in the prompt prints
// `sleep 30` and waits until it is signalled.
const FAKE_CLI_SOURCE = `
console.log(JSON.stringify({ type: 'system', subtype: 'init', session_id: 'fake-session', cwd: process.cwd() }));
const prompt = process.argv[1];
const response = await fetch(process.env.ANTHROPIC_BASE_URL + '/v1/messages', {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ model: 'fake', max_tokens: 10, messages: [{ role: 'user', content: prompt }] }),
});
console.log(JSON.stringify(await response.json()));
if (prompt.includes('[wait]')) {
  console.log('sleep 30');
  setInterval(() => {}, 1000);
}
`;

/** A CLI definition for harness tests that need no real CLI installed. */
export const fakeAgentCli: AgentCliDefinition = {
  name: 'fake',
  programName: 'fake-agent',
  packageName: 'fake-agent-cli',
  wire: 'anthropic',
  dialect: claudeCodeAgentCli.dialect,
  resolve: () => ({
    command: process.execPath,
    args: ['--input-type=module', '-e', FAKE_CLI_SOURCE],
    version: '0.0.0',
  }),
  args: (settings) => [settings.prompt],
  writeSettings: (home, settings) =>
    writeFile(join(home, 'fake-settings.json'), JSON.stringify({ permissions: settings.permissions })),
};
