import { describe, expect, it } from 'vitest';
import { captureStream, plainColors, textMessage } from '../render/test-support.js';
import { LiveAgentOutput } from './live-agent-output.js';

function shown(markdown: boolean): string {
  const out = captureStream();
  const live = new LiveAgentOutput({ out, colors: plainColors, markdown });
  live.listeners.onDisplayMessage?.(textMessage('u1', 'user', 'Fix it'));
  live.listeners.onDisplayMessage?.(textMessage('a1', 'assistant', '## Fixed\n- `notes.txt`'));
  live.end();
  return out.text;
}

describe('LiveAgentOutput', () => {
  it("renders the agent's answer as Markdown when asked, as it is otherwise", () => {
    expect(shown(true)).toBe('## Fixed\n  • `notes.txt`\n');
    expect(shown(false)).toBe('## Fixed\n- `notes.txt`\n');
  });
});
