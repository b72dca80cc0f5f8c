import { describe, expect, it } from 'vitest';
import { createLiveTurnRenderer, type LiveTurnRendererOptions } from './live-turn-renderer.js';
import {
  approvalRecords,
  captureStream,
  persisted,
  plainColors,
  toolCallMessage,
  toolResultMessage,
} from './test-support.js';

const call = toolCallMessage('a1', 'run_command', { command: 'make' });
const { request, approved } = approvalRecords(call);
const result = toolResultMessage('t1', 'a1', { content: 'built' });

// What a live turn prints for these stored messages, after learning `history`.
function rendered(messages: Parameters<typeof persisted>[0][], history?: LiveTurnRendererOptions['history']) {
  const out = captureStream();
  const renderer = createLiveTurnRenderer({
    out,
    colors: plainColors,
    ...(history === undefined ? {} : { history }),
  });
  for (const message of messages) renderer.onEvent(persisted(message));
  renderer.finish();
  return out.text;
}

describe('createLiveTurnRenderer and the tool ledger', () => {
  it('prints a call once through its approval, never its records; one still waiting shows so at the end', () => {
    const ran = rendered([call, request, approved, result]);
    expect(ran).toBe(rendered([call, result]));
    expect(ran).not.toMatch(/did not finish|awaiting/);
    expect(rendered([call, request])).toBe('? run_command: make — awaiting approval (a1.a0)\n');
  });

  it("shows a resumed call's result as its execution, given the stored messages it goes on from", () => {
    const resumed = rendered([result], [call, request, approved]);
    expect(resumed).toBe(rendered([call, result]));
    expect(resumed).not.toContain('result:');
  });
});
