import { describe, expect, it } from 'vitest';
import type { ToolCallView, ToolProcessor } from './tool-call-view.js';
import { ToolProcessorRegistry } from './tool-processor-registry.js';

function call(result: Partial<ToolCallView> = {}): ToolCallView {
  return {
    toolName: 'deploy',
    toolUseId: 't',
    input: {},
    output: '',
    isError: false,
    status: 'completed',
    ...result,
  };
}

const deploy: ToolProcessor = {
  toolNames: ['deploy', 'ship'],
  summarize: () => 'Deployed',
  details: () => ({ type: 'fileList', files: ['app.js'] }),
};

describe('ToolProcessorRegistry', () => {
  it('finds processors by each of their tool names', () => {
    const registry = new ToolProcessorRegistry([deploy]);
    expect(registry.get('deploy')).toBe(deploy);
    expect(registry.get('ship')).toBe(deploy);
    expect(registry.get('constructor')).toBeUndefined();
  });

  it('lets later processors override earlier ones, by name', () => {
    const other: ToolProcessor = { toolNames: ['ship'], summarize: () => 'Shipped' };
    const registry = new ToolProcessorRegistry([deploy, other]);
    expect(registry.get('deploy')).toBe(deploy);
    expect(registry.get('ship')).toBe(other);
    expect(registry.register(deploy)).toBe(registry);
    expect(registry.get('ship')).toBe(deploy);
  });

  it("describes a call with its processor's summary and details", () => {
    expect(new ToolProcessorRegistry([deploy]).describe(call())).toEqual({
      summary: 'Deployed',
      details: { type: 'fileList', files: ['app.js'] },
    });
  });

  it('says "<toolName> failed: <reason>" for a processor\'s failures unless it describes them', () => {
    const failed = call({ isError: true, output: 'Permission denied\nat line 3' });
    expect(new ToolProcessorRegistry([deploy]).describe(failed).summary).toBe(
      'deploy failed: Permission denied',
    );
    const describing: ToolProcessor = { ...deploy, describeFailure: () => 'Deploy refused' };
    expect(new ToolProcessorRegistry([describing]).describe(failed).summary).toBe('Deploy refused');
  });

  it('describes calls of unknown tools generically', () => {
    const registry = new ToolProcessorRegistry();
    expect(registry.describe(call())).toEqual({ summary: 'deploy completed' });
    expect(registry.describe(call({ isError: true, output: 'boom' }))).toEqual({
      summary: 'deploy failed: boom',
    });
    expect(registry.describe(call({ isError: true }))).toEqual({ summary: 'deploy failed' });
    expect(registry.describe(call({ toolName: ' \n ' }))).toEqual({ summary: 'Tool completed' });
  });

  it('says "<toolName> did not finish" (waits for approval, is running) for a call without a result, whatever its processor', () => {
    const registry = new ToolProcessorRegistry([deploy]);
    expect(registry.describe(call({ status: 'unfinished', isError: true }))).toEqual({
      summary: 'deploy did not finish',
    });
    // Where the tool ledger says a call without a result stands.
    expect(registry.describe(call({ status: 'awaiting_approval' }))).toEqual({
      summary: 'deploy waits for approval',
    });
    expect(registry.describe(call({ status: 'running' }))).toEqual({ summary: 'deploy is running' });
  });

  it('falls back on the generic summary when a processor throws or says nothing', () => {
    const throwing: ToolProcessor = {
      toolNames: ['deploy'],
      summarize: () => {
        throw new Error('bug');
      },
    };
    expect(new ToolProcessorRegistry([throwing]).describe(call())).toEqual({ summary: 'deploy completed' });
    const failingDetails: ToolProcessor = {
      ...deploy,
      details: () => {
        throw new Error('bug');
      },
    };
    expect(new ToolProcessorRegistry([failingDetails]).describe(call())).toEqual({
      summary: 'deploy completed',
    });
    const silent: ToolProcessor = { toolNames: ['deploy'], summarize: () => ' \n ' };
    expect(new ToolProcessorRegistry([silent]).describe(call())).toEqual({ summary: 'deploy completed' });
    const untyped = { toolNames: ['deploy'], summarize: () => 42 } as unknown as ToolProcessor;
    expect(new ToolProcessorRegistry([untyped]).describe(call())).toEqual({ summary: 'deploy completed' });
  });

  it('keeps summaries on one bounded line', () => {
    const chatty: ToolProcessor = {
      toolNames: ['deploy'],
      summarize: () => `Deployed\nto prod\r\n${'x'.repeat(300)}`,
    };
    const { summary } = new ToolProcessorRegistry([chatty]).describe(call());
    expect(summary).toBe(`Deployed to prod ${'x'.repeat(182)}…`);
    expect(summary).toHaveLength(200);
  });
});
