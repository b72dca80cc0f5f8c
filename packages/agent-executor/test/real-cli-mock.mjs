#!/usr/bin/env node
// The vendor API for a real agent CLI in tests: `@cairn/testing`'s mock server playing the `sleep`
// scenario (text + a shell `sleep 30`, then `Slept.`), on loopback. Usage:
//   node real-cli-mock.mjs anthropic|gemini <port file>
// It writes its port to the file once it listens.
import { writeFileSync } from 'node:fs';
import { startMockProviderServer } from '@cairn/testing';

const [provider, portFile] = process.argv.slice(2);
const SLEEP = {
  anthropic: { name: 'Bash', arguments: { command: 'sleep 30', description: 'Wait 30 seconds' } },
  gemini: { name: 'run_shell_command', arguments: { command: 'sleep 30', description: 'Wait 30 seconds' } },
}[provider];
if (SLEEP === undefined || portFile === undefined)
  throw new Error('usage: real-cli-mock.mjs anthropic|gemini <port file>');

const server = await startMockProviderServer({
  provider,
  // Claude Code's first request has a `system` message inside `messages`, which validation refuses.
  validateRequests: false,
  turns: (request) => {
    const body = JSON.stringify(request.body ?? '');
    // Gemini CLI's model router asks first, without streaming.
    if (provider === 'gemini' && !request.stream) {
      return { text: '{"complexity_reasoning":"a single shell command","complexity_score":30}' };
    }
    if (body.includes('"tool_result"') || body.includes('"functionResponse"')) return { text: 'Slept.' };
    if (!body.includes('[scenario:sleep]')) return { text: 'OK.' };
    return { text: 'I will wait for 30 seconds.', toolCalls: [SLEEP] };
  },
});
writeFileSync(portFile, new URL(server.origin).port);
