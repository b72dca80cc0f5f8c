import { describe, expect, it } from 'vitest';
import { CairnError } from '../errors/cairn-error.js';
import {
  DEFAULT_MAX_TOOL_RESULT_CHARS,
  resolveMaxToolResultChars,
  toolOutputForModel,
} from './tool-output-for-model.js';
import { fullOutputMarker, TOOL_OUTPUT_PREVIEW_LENGTH, TOOL_OUTPUT_THRESHOLD } from './tool-output-limits.js';

const ref = 'tool-results/conv-1/msg-3.txt';

describe('toolOutputForModel', () => {
  it('sends an output within the bound as it is', () => {
    const content = 'x'.repeat(DEFAULT_MAX_TOOL_RESULT_CHARS);
    expect(toolOutputForModel({ content })).toBe(content);
    expect(toolOutputForModel({ content: null })).toBe('');
    expect(toolOutputForModel({})).toBe('');
  });

  it('defaults to the most a store keeps inline, so stored outputs are never cut twice', () => {
    expect(DEFAULT_MAX_TOOL_RESULT_CHARS).toBe(TOOL_OUTPUT_THRESHOLD);
  });

  it('sends an offloaded output as its stored preview and reference, adding the reference when missing', () => {
    const preview = 'p'.repeat(TOOL_OUTPUT_PREVIEW_LENGTH);
    const stored = preview + fullOutputMarker(ref);
    expect(toolOutputForModel({ content: stored, fullOutputPath: ref })).toBe(stored);
    expect(toolOutputForModel({ content: preview, fullOutputPath: ref })).toBe(stored);
  });

  it('cuts an output over the bound to its start, with how much is missing and how to read more', () => {
    const content = `BEGIN ${'y'.repeat(1_500_000)} END`;
    const sent = toolOutputForModel({ content }, 2_000);
    expect(sent.length).toBeLessThanOrEqual(2_000);
    expect(sent.startsWith('BEGIN yyy')).toBe(true);
    expect(sent).not.toContain('END');
    const kept = sent.indexOf('\n\n[Output cut');
    expect(sent.slice(kept)).toBe(
      `\n\n[Output cut: the first ${kept} of ${content.length} characters are shown. Call the tool again with narrower input (a range, a filter, a smaller command) to read the rest.]`,
    );
    expect(toolOutputForModel({ content }).length).toBeLessThanOrEqual(DEFAULT_MAX_TOOL_RESULT_CHARS);
  });

  it('never ends a cut output in half a surrogate pair', () => {
    const content = '😀'.repeat(5_000);
    for (const bound of [1_000, 1_001]) {
      const sent = toolOutputForModel({ content }, bound);
      const kept = sent.slice(0, sent.indexOf('\n\n[Output cut'));
      expect(kept).toBe('😀'.repeat(kept.length / 2));
    }
  });

  it('cuts an offloaded preview longer than the bound, keeping the reference whole', () => {
    const content = 'z'.repeat(5_000) + fullOutputMarker(ref);
    const sent = toolOutputForModel({ content, fullOutputPath: ref }, 1_000);
    expect(sent).toHaveLength(1_000);
    expect(sent.endsWith(fullOutputMarker(ref))).toBe(true);
  });

  it('keeps the note whole when the bound is smaller than it', () => {
    const sent = toolOutputForModel({ content: 'abcdef'.repeat(100) }, 10);
    expect(sent.startsWith('\n\n[Output cut: the first 0 of 600 characters')).toBe(true);
  });

  it('sends everything with an Infinity bound', () => {
    const content = 'w'.repeat(200_000);
    expect(toolOutputForModel({ content }, Number.POSITIVE_INFINITY)).toBe(content);
  });

  it('refuses a bound that is not a positive integer or Infinity', () => {
    for (const bad of [0, -1, 1.5, Number.NaN]) {
      expect(() => resolveMaxToolResultChars(bad)).toThrow(CairnError);
      expect(() => toolOutputForModel({ content: 'x' }, bad)).toThrow(/maxToolResultChars/);
    }
    expect(resolveMaxToolResultChars(undefined)).toBe(DEFAULT_MAX_TOOL_RESULT_CHARS);
  });
});
