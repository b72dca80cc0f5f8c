import { stat } from 'node:fs/promises';
import { createMemoryConversationStore } from '@cairn/storage';
import { describe, expect, it } from 'vitest';
import { MAX_TRANSCRIPT_BYTES } from '../src/index.js';
import { runAgent } from '../src/run-agent.js';
import { resolveRunSettings } from '../src/run-settings.js';
import {
  CLAUDE_CODE_FIXTURE,
  CLAUDE_CODE_SESSION_ID,
  FIXTURE_PROMPT,
  fakeAgentCommand,
  tempDir,
} from './support.js';

describe('the raw transcript', () => {
  it('is capped at MAX_TRANSCRIPT_BYTES (a smaller cap here); every line is still converted', async () => {
    const store = createMemoryConversationStore();
    const settings = resolveRunSettings({
      store,
      agent: 'claude-code',
      cwd: await tempDir(),
      ...fakeAgentCommand({ FAKE_AGENT_FIXTURE: CLAUDE_CODE_FIXTURE }),
    });
    expect(settings.maxTranscriptBytes).toBe(MAX_TRANSCRIPT_BYTES);

    const result = await runAgent({ ...settings, maxTranscriptBytes: 1000 }, { prompt: FIXTURE_PROMPT }, 'c');

    // The whole transcript was processed: the final result, far past the cap, is there.
    expect(result).toMatchObject({ success: true, sessionId: CLAUDE_CODE_SESSION_ID, turns: 5 });
    const transcript = Buffer.from(await store.getBlob(result.transcriptRef as string));
    const lines = transcript.toString('utf8').trimEnd().split('\n');
    const marker = JSON.parse(lines.at(-1) as string);
    expect(marker).toMatchObject({ type: 'cairn_transcript_truncated', keptBytes: 1000 });
    expect(marker.droppedBytes).toBe((await stat(CLAUDE_CODE_FIXTURE)).size - 1000);
    expect(transcript.length).toBeLessThan(1000 + 300);
  });
});
