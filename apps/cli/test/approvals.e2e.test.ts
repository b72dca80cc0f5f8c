import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type ConversationMessage, readToolLedger } from '@cairn/core';
import { type MockProviderServer, type ScriptTurn, startMockProviderServer } from '@cairn/testing';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { chatRequests, ensureCliBuilt, mockEnv, runCairn, storedLog, tempDir } from './cli-process.js';

beforeAll(ensureCliBuilt, 120_000);

let server: MockProviderServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const append = (line: string): ScriptTurn => ({
  toolCalls: [{ name: 'run_command', arguments: { command: `echo ${line} >> side.txt` } }],
});
const decisions = (log: ConversationMessage[]) =>
  log.filter((message) => message.partType === 'approval_decision');

/** A `-p` turn left waiting for approval: its conversation, its request's id, and how to run `cairn`. */
async function waitingTurn(turns: ScriptTurn[]) {
  server = await startMockProviderServer({ provider: 'openai', turns });
  const dir = tempDir('approvals');
  const env = mockEnv(dir, server.baseURL, { CAIRN_WORKSPACE: dir });
  const run = await runCairn(['-p', 'append a line'], { env });
  expect(run.code).toBe(0);
  const conversationId = /conversation (\S+)/.exec(run.stderr)?.[1] as string;
  const approvalId = /id: +(\S+)/.exec(run.stderr)?.[1] as string;
  expect(run.stderr).toContain(`approve: cairn approvals approve ${conversationId} ${approvalId}`);
  const cairn = (...args: string[]) => runCairn(args, { env });
  return { dir, conversationId, approvalId, cairn, side: join(dir, 'side.txt') };
}

describe('cairn approvals', () => {
  it('approves a request left waiting by -p once, goes on with the conversation; a second approve changes nothing', async () => {
    const { dir, conversationId, approvalId, cairn, side } = await waitingTurn([
      append('approved'),
      { text: 'Appended it.' },
    ]);
    expect(existsSync(side)).toBe(false);
    const listed = await cairn('approvals', 'list', conversationId);
    expect(listed.stdout).toContain(`${approvalId}  pending  run_command: echo approved >> side.txt`);

    const approved = await cairn('approvals', 'approve', conversationId, approvalId);
    expect(approved.code).toBe(0);
    expect(approved.stdout).toMatch(/✓ Ran `echo approved >> side\.txt`/);
    expect(approved.stdout).toContain('Appended it.');
    expect(approved.stderr).toContain(`${approvalId}: approve by local`);
    expect(readFileSync(side, 'utf8')).toBe('approved\n');

    const again = await cairn('approvals', 'approve', conversationId, approvalId);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(
      /already decided by local \(approve at [^)]+\); .*\[APPROVAL_ALREADY_DECIDED\]/,
    );
    expect(again.stdout).toBe('');
    // Nothing ran twice, and the model was not asked again.
    expect(readFileSync(side, 'utf8')).toBe('approved\n');
    expect(chatRequests(server as MockProviderServer)).toHaveLength(2);
    const log = await storedLog(dir, conversationId);
    expect(decisions(log)).toHaveLength(1);
    const json = await cairn('approvals', 'list', conversationId, '--json');
    expect(JSON.parse(json.stdout)).toMatchObject({
      id: approvalId,
      status: 'decided',
      decision: { outcome: 'approve', decidedBy: 'local' },
    });
  });

  it('denies with a reason the model is told, and nothing runs', async () => {
    const { conversationId, approvalId, cairn, side } = await waitingTurn([
      append('denied'),
      { text: 'I will not append it.' },
    ]);
    const denied = await cairn('approvals', 'deny', conversationId, approvalId, '--reason', 'not today');
    expect(denied.code).toBe(0);
    expect(denied.stdout).toContain('I will not append it.');
    expect(existsSync(side)).toBe(false);
    expect(JSON.stringify(chatRequests(server as MockProviderServer)[1]?.body)).toContain('not today');
  });

  it('runs an edited input with --input, and says what is wrong with a bad one, each with its exit code', async () => {
    const { dir, conversationId, approvalId, cairn, side } = await waitingTurn([
      append('asked'),
      { text: 'Appended the edited line.' },
    ]);
    const notJson = await cairn('approvals', 'approve', conversationId, approvalId, '--input', '{command');
    expect(notJson.code).toBe(2);
    expect(notJson.stderr).toContain('--input must be JSON');
    const unfit = await cairn('approvals', 'approve', conversationId, approvalId, '--input', '{"cmd":1}');
    expect(unfit.code).toBe(5);
    expect(unfit.stderr).toContain("--input does not fit the tool's input");
    const unknown = await cairn('approvals', 'deny', conversationId, 'nothing.a0');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain(`has no approval request nothing.a0 [APPROVAL_NOT_FOUND]`);
    const noConversation = await cairn('approvals', 'approve', 'chat-nope', approvalId);
    expect(noConversation.code).toBe(3);
    expect(noConversation.stderr).toContain('there is no conversation "chat-nope"');

    const edited = JSON.stringify({ command: 'echo edited >> side.txt' });
    const approved = await cairn('approvals', 'approve', conversationId, approvalId, '--input', edited);
    expect(approved.code).toBe(0);
    expect(approved.stdout).toContain('Appended the edited line.');
    expect(readFileSync(side, 'utf8')).toBe('edited\n');
    const [entry] = readToolLedger(await storedLog(dir, conversationId)).approvals;
    expect(entry?.decision).toMatchObject({ outcome: 'edit', input: { command: 'echo edited >> side.txt' } });
  });
});
