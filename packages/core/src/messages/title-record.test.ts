import { describe, expect, it } from 'vitest';
import { CairnError } from '../errors/cairn-error.js';
import { isDisplayOnlyMessage, isIncludedInContext } from './conversation-message.js';
import {
  isTitleRecord,
  normalizeConversationTitle,
  TITLE_PART_TYPE,
  titleRecord,
  titleRecordText,
} from './title-record.js';
import { toProtocolMessage } from './to-protocol-message.js';

const record = () => titleRecord({ id: 't1', createdAt: '2026-01-01T00:00:00.000Z', title: '  Trip plan ' });

function codeOf(action: () => unknown): string | undefined {
  try {
    action();
  } catch (error) {
    return CairnError.is(error) ? error.code : 'not a CairnError';
  }
  return undefined;
}

describe('title records', () => {
  it('holds the trimmed title as a hidden system message', () => {
    expect(record()).toMatchObject({
      role: 'system',
      partType: TITLE_PART_TYPE,
      content: 'Trip plan',
      includeInContext: false,
    });
    expect(isTitleRecord(record())).toBe(true);
    expect(titleRecordText(record())).toBe('Trip plan');
  });

  it('is never included in a model context, even when includeInContext says true', () => {
    const shown = { ...record(), includeInContext: true };
    expect(isDisplayOnlyMessage(shown)).toBe(true);
    expect(isIncludedInContext(shown)).toBe(false);
    expect(codeOf(() => toProtocolMessage(shown))).toBe('INVALID_MESSAGE');
  });

  it('refuses an empty, too long or multi-line title with INVALID_ARGUMENT', () => {
    expect(codeOf(() => normalizeConversationTitle('   '))).toBe('INVALID_ARGUMENT');
    expect(codeOf(() => normalizeConversationTitle('x'.repeat(201)))).toBe('INVALID_ARGUMENT');
    expect(codeOf(() => normalizeConversationTitle('one\ntwo'))).toBe('INVALID_ARGUMENT');
    expect(normalizeConversationTitle(` ${'é'.repeat(200)} `)).toBe('é'.repeat(200));
  });

  it('is told apart from other system records', () => {
    expect(isTitleRecord({ role: 'system', partType: 'compaction' })).toBe(false);
    expect(isTitleRecord({ role: 'user', partType: TITLE_PART_TYPE })).toBe(false);
  });
});
