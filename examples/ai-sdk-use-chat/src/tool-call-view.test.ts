import type { DynamicToolUIPart } from 'ai';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ToolCallView } from './tool-call-view.tsx';

const render = (part: DynamicToolUIPart) =>
  renderToStaticMarkup(createElement(ToolCallView, { part, onApprovalResponse: () => undefined }));

const call = {
  type: 'dynamic-tool',
  toolName: 'run_command',
  toolCallId: 'c1',
  input: { command: 'make' },
} as const;

describe('ToolCallView', () => {
  it('asks for approval: the input, a labelled reason field, Approve and Deny', () => {
    const html = render({ ...call, state: 'approval-requested', approval: { id: 'a1.a0' } });
    expect(html).toContain('<span class="tool-status">needs approval</span>');
    expect(html).toContain('&quot;command&quot;: &quot;make&quot;');
    expect(html).toMatch(/<label for="([^"]+)">Reason \(optional\)<\/label><input id="\1"/);
    expect(html).toContain('>Approve</button>');
    expect(html).toContain('>Deny</button>');
  });

  it('shows an answered call as approved or denied, without the buttons', () => {
    const approved = render({
      ...call,
      state: 'approval-responded',
      approval: { id: 'a1.a0', approved: true },
    });
    expect(approved).toContain('<span class="tool-status">approved</span>');
    expect(approved).not.toContain('Approve</button>');
    const denied = render({
      ...call,
      state: 'output-denied',
      approval: { id: 'a1.a0', approved: false, reason: 'Not now' },
    });
    expect(denied).toContain('<span class="tool-status">denied</span>');
    expect(denied).toContain('Denied: Not now');
    expect(denied).not.toContain('Deny</button>');
  });
});
