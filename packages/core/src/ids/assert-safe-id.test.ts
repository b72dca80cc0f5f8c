import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CairnError } from '../errors/cairn-error.js';
import { assertSafeId, assertSafeRef, isSafeId } from './assert-safe-id.js';

// Mostly near-valid ids (the pattern's alphabet plus dots), some arbitrary code points.
const candidateIds = fc.oneof(
  fc.stringMatching(/^[A-Za-z0-9._-]{1,130}$/),
  fc.string({ unit: 'binary', maxLength: 140 }),
);

describe('assertSafeId', () => {
  it.each([
    'abc',
    'conv-1',
    'run-2026_01.18',
    'A',
    'a..b',
    'x'.repeat(128),
    '550e8400-e29b-41d4-a716-446655440000',
  ])('accepts %s', (id) => {
    expect(() => assertSafeId('conversationId', id)).not.toThrow();
    expect(isSafeId(id)).toBe(true);
  });

  it.each([
    ['a parent path', '../x'],
    ['an absolute path', '/abs'],
    ['a NUL byte', 'a\0b'],
    ['..', '..'],
    ['.', '.'],
    ['a hidden name', '.git'],
    ['200 characters', 'a'.repeat(200)],
    ['129 characters', 'a'.repeat(129)],
    ['the empty string', ''],
    ['a slash inside', 'a/b'],
    ['a backslash', 'a\\b'],
    ['a space', 'a b'],
    ['a newline', 'a\n'],
    ['non-ASCII letters', 'café'],
    ['a URL-encoded slash', 'a%2Fb'],
  ])('refuses %s', (_label, id) => {
    expect(isSafeId(id)).toBe(false);
    expect(() => assertSafeId('conversationId', id)).toThrow(CairnError);
    try {
      assertSafeId('conversationId', id);
    } catch (error) {
      expect(CairnError.is(error, 'INVALID_ID')).toBe(true);
      expect((error as CairnError).details).toEqual({ kind: 'conversationId' });
      expect((error as CairnError).message).toContain('Invalid conversationId');
    }
  });

  it.each([undefined, null, 42, {}, ['a']])('refuses the non-string %j', (id) => {
    expect(() => assertSafeId('runId', id)).toThrow(/Invalid runId/);
  });

  it('quotes a long rejected id only in part', () => {
    expect(() => assertSafeId('runId', `/${'z'.repeat(1000)}`)).toThrow(/z…"/);
  });

  it('an accepted id joined to a directory is exactly one entry inside it', () => {
    fc.assert(
      fc.property(candidateIds, (id) => {
        fc.pre(isSafeId(id));
        const base = '/data/conversations';
        expect(join(base, id)).toBe(`${base}/${id}`);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('assertSafeRef', () => {
  it.each(['tool-results/conv-1/msg-9.json', 'blob', 'a/b/c/d/e/f/g/h'])('accepts %s', (ref) => {
    expect(() => assertSafeRef('blobRef', ref)).not.toThrow();
  });

  it.each([
    ['a parent segment', 'tool-results/../secrets'],
    ['a leading slash', '/etc/passwd'],
    ['a trailing slash', 'tool-results/'],
    ['an empty segment', 'a//b'],
    ['a dot segment', 'a/./b'],
    ['a hidden segment', 'a/.git'],
    ['a backslash', 'a\\b'],
    ['a NUL byte', 'a/b\0c'],
    ['nine segments', 'a/b/c/d/e/f/g/h/i'],
    ['the empty string', ''],
  ])('refuses %s', (_label, ref) => {
    expect(() => assertSafeRef('blobRef', ref)).toThrow(/Invalid blobRef/);
  });

  it('refuses a non-string', () => {
    expect(() => assertSafeRef('blobRef', 42)).toThrow(CairnError);
  });

  it('an accepted ref joined to a directory stays inside it', () => {
    const refs = fc.array(candidateIds, { minLength: 1, maxLength: 9 }).map((segments) => segments.join('/'));
    fc.assert(
      fc.property(fc.oneof(refs, fc.string({ unit: 'binary' })), (ref) => {
        try {
          assertSafeRef('blobRef', ref);
        } catch {
          return;
        }
        expect(join('/data', ref)).toBe(`/data/${ref}`);
      }),
      { numRuns: 2000 },
    );
  });
});
