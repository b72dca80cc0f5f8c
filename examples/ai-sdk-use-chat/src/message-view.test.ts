import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { CairnUIMessage } from './chat-message.ts';
import { MessageView } from './message-view.tsx';

const render = (message: CairnUIMessage) =>
  renderToStaticMarkup(createElement(MessageView, { message, onApprovalResponse: () => undefined }));

describe('MessageView', () => {
  it('shows a tool’s image inline and its other files as a download link', () => {
    const html = render({
      id: 'a1',
      role: 'assistant',
      parts: [
        { type: 'file', mediaType: 'image/png', url: 'data:image/png;base64,iVBORw0KGgo=' },
        {
          type: 'file',
          mediaType: 'application/pdf',
          url: 'data:application/pdf;base64,JVBERi0=',
          filename: 'r.pdf',
        },
      ],
    });
    expect(html).toContain('<img class="file-image" src="data:image/png;base64,iVBORw0KGgo="');
    expect(html).toContain(
      '<a class="file-link" href="data:application/pdf;base64,JVBERi0=" download="r.pdf">r.pdf</a>',
    );
  });

  it('shows a failed tool call with its error, and the model and tokens under the answer', () => {
    const html = render({
      id: 'a1',
      role: 'assistant',
      metadata: { conversationId: 'c1', model: 'openai/gpt-x', usage: { inputTokens: 12, outputTokens: 3 } },
      parts: [
        {
          type: 'dynamic-tool',
          toolName: 'run_command',
          toolCallId: 'c1',
          state: 'output-error',
          input: { command: 'false' },
          errorText: 'exit code 1',
        },
      ],
    });
    expect(html).toContain('data-tool-name="run_command"');
    expect(html).toContain('<span class="tool-status">failed</span>');
    expect(html).toContain('exit code 1');
    expect(html).toContain('openai/gpt-x · 12 in / 3 out tokens');
  });

  it('shows nothing for an answer with nothing to show yet (it failed before its first word)', () => {
    expect(render({ id: 'a1', role: 'assistant', parts: [{ type: 'step-start' }] })).toBe('');
  });
});
