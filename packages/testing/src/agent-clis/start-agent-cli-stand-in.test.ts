import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { claudeCodeAgentCli } from './claude-code-agent-cli.js';
import { geminiCliAgentCli } from './gemini-cli-agent-cli.js';
import { startAgentCliStandIn } from './start-agent-cli-stand-in.js';

async function post(origin: string, path: string, body: unknown): Promise<{ status: number; body: unknown }> {
  const response = await fetch(origin + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

const claudeRequest = (messages: unknown[]) => ({ model: 'claude-opus-4-8', max_tokens: 100, messages });
// The Anthropic stand-in keeps the request rules on, so a replayed tool_result needs its tool_use.
const callT = { type: 'tool_use', id: 't', name: 'Write', input: {} };

describe('startAgentCliStandIn', () => {
  it('plays the scenario named by the marker, by turn, with the CLI’s tool names and absolute paths', async () => {
    const standIn = await startAgentCliStandIn({
      wire: 'anthropic',
      dialect: claudeCodeAgentCli.dialect,
      cwd: '/w',
    });
    try {
      const first = await post(
        standIn.origin,
        '/v1/messages',
        claudeRequest([{ role: 'user', content: 'Go [scenario:main]' }]),
      );
      expect(first.body).toMatchObject({
        content: [
          { type: 'text', text: "I'll create hello.txt first." },
          { type: 'tool_use', name: 'Write', input: { file_path: '/w/hello.txt' } },
        ],
      });
      const second = await post(
        standIn.origin,
        '/v1/messages',
        claudeRequest([
          { role: 'user', content: 'Go [scenario:main]' },
          { role: 'assistant', content: [{ type: 'text', text: 'x' }, callT] },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: 'ok' }] },
        ]),
      );
      expect(second.body).toMatchObject({ content: [{ type: 'text' }, { type: 'tool_use', name: 'Edit' }] });
      expect(standIn.requests).toHaveLength(2);
    } finally {
      await standIn.close();
    }
  });

  it('counts a repeated turn as the next attempt: apierr fails the first try of turn 1 only', async () => {
    const standIn = await startAgentCliStandIn({
      wire: 'anthropic',
      dialect: claudeCodeAgentCli.dialect,
      cwd: '/w',
    });
    try {
      const messages = [
        { role: 'user', content: 'Go [scenario:apierr]' },
        { role: 'assistant', content: [{ type: 'text', text: 'x' }, callT] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: 'one' }] },
      ];
      expect((await post(standIn.origin, '/v1/messages', claudeRequest(messages))).status).toBe(500);
      expect((await post(standIn.origin, '/v1/messages', claudeRequest(messages))).status).toBe(200);
    } finally {
      await standIn.close();
    }
  });

  it('answers Gemini’s non-streaming router call with a complexity rating, even though it repeats the marker', async () => {
    const standIn = await startAgentCliStandIn({
      wire: 'gemini',
      dialect: geminiCliAgentCli.dialect,
      cwd: '/w',
    });
    try {
      const answer = await post(standIn.origin, '/v1beta/models/gemini-3.5-flash-lite:generateContent', {
        contents: [{ role: 'user', parts: [{ text: 'Go [scenario:main]' }] }],
      });
      const text = (answer.body as { candidates: { content: { parts: { text: string }[] } }[] }).candidates[0]
        ?.content.parts[0]?.text;
      expect(JSON.parse(text ?? '')).toMatchObject({ complexity_score: 30 });
    } finally {
      await standIn.close();
    }
  });

  it('is reachable through its Unix socket too', async () => {
    const standIn = await startAgentCliStandIn({
      wire: 'anthropic',
      dialect: claudeCodeAgentCli.dialect,
      cwd: '/w',
    });
    try {
      const status = await new Promise<number | undefined>((resolve, reject) => {
        const body = JSON.stringify(claudeRequest([{ role: 'user', content: 'Go [scenario:deny]' }]));
        const outgoing = request(
          {
            socketPath: standIn.socketPath,
            path: '/v1/messages',
            method: 'POST',
            headers: { 'content-type': 'application/json' },
          },
          (response) => {
            response.resume();
            response.on('end', () => resolve(response.statusCode));
          },
        );
        outgoing.on('error', reject);
        outgoing.end(body);
      });
      expect(status).toBe(200);
      expect(standIn.requests[0]?.body).toMatchObject({ messages: [{ content: 'Go [scenario:deny]' }] });
    } finally {
      await standIn.close();
    }
  });

  it('refuses a scenario it does not know with a 400, so the CLI does not retry', async () => {
    const standIn = await startAgentCliStandIn({
      wire: 'anthropic',
      dialect: claudeCodeAgentCli.dialect,
      cwd: '/w',
    });
    try {
      const answer = await post(
        standIn.origin,
        '/v1/messages',
        claudeRequest([{ role: 'user', content: '[scenario:nope]' }]),
      );
      expect(answer.status).toBe(400);
    } finally {
      await standIn.close();
    }
  });
});
