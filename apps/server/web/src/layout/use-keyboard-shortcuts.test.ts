import { describe, expect, it } from 'vitest';
import { isTextField, type KeyPress, matchShortcut } from './use-keyboard-shortcuts.js';

const press = (key: string, modifiers: Partial<KeyPress> = {}): KeyPress => ({
  key,
  ctrlKey: false,
  metaKey: false,
  shiftKey: false,
  altKey: false,
  ...modifiers,
});

describe('matchShortcut', () => {
  it('takes Ctrl or ⌘ alike, even while typing', () => {
    for (const inTextField of [false, true]) {
      expect(matchShortcut(press('k', { ctrlKey: true }), inTextField)).toBe('focus-search');
      expect(matchShortcut(press('k', { metaKey: true }), inTextField)).toBe('focus-search');
      expect(matchShortcut(press('O', { ctrlKey: true, shiftKey: true }), inTextField)).toBe(
        'new-conversation',
      );
      expect(matchShortcut(press('o', { metaKey: true, shiftKey: true }), inTextField)).toBe(
        'new-conversation',
      );
    }
  });

  it('ignores other combinations of the same keys', () => {
    expect(matchShortcut(press('k'), false)).toBeUndefined();
    expect(matchShortcut(press('k', { ctrlKey: true, metaKey: true }), false)).toBeUndefined();
    expect(matchShortcut(press('K', { ctrlKey: true, shiftKey: true }), false)).toBeUndefined();
    expect(matchShortcut(press('o', { ctrlKey: true }), false)).toBeUndefined();
    expect(matchShortcut(press('k', { ctrlKey: true, altKey: true }), false)).toBeUndefined();
    expect(matchShortcut(press('ArrowUp', { ctrlKey: true }), false)).toBeUndefined();
    expect(matchShortcut(press('ArrowUp', { altKey: true, shiftKey: true }), false)).toBeUndefined();
  });

  it('moves between conversations with Alt and the arrows, from anywhere', () => {
    for (const inTextField of [false, true]) {
      expect(matchShortcut(press('ArrowUp', { altKey: true }), inTextField)).toBe('previous-conversation');
      expect(matchShortcut(press('ArrowDown', { altKey: true }), inTextField)).toBe('next-conversation');
    }
    expect(matchShortcut(press('ArrowDown'), false)).toBeUndefined();
  });

  it('takes ? and / only outside text fields (there they are typed)', () => {
    expect(matchShortcut(press('?', { shiftKey: true }), false)).toBe('show-shortcuts');
    expect(matchShortcut(press('/'), false)).toBe('focus-message');
    expect(matchShortcut(press('?', { shiftKey: true }), true)).toBeUndefined();
    expect(matchShortcut(press('/'), true)).toBeUndefined();
    expect(matchShortcut(press('/', { altKey: true }), false)).toBeUndefined();
    expect(matchShortcut(press('/', { ctrlKey: true }), false)).toBeUndefined();
  });

  it('closes with Escape anywhere, but not while an input method composes', () => {
    expect(matchShortcut(press('Escape'), false)).toBe('close');
    expect(matchShortcut(press('Escape'), true)).toBe('close');
    expect(matchShortcut(press('Escape', { isComposing: true }), true)).toBeUndefined();
    expect(matchShortcut(press('k', { ctrlKey: true, isComposing: true }), true)).toBeUndefined();
  });
});

describe('isTextField', () => {
  it('tells where text is typed', () => {
    expect(isTextField({ tagName: 'TEXTAREA' })).toBe(true);
    expect(isTextField({ tagName: 'INPUT', type: 'search' })).toBe(true);
    expect(isTextField({ tagName: 'INPUT', type: 'password' })).toBe(true);
    expect(isTextField({ tagName: 'INPUT' })).toBe(true);
    expect(isTextField({ tagName: 'DIV', isContentEditable: true })).toBe(true);
    expect(isTextField({ tagName: 'INPUT', type: 'checkbox' })).toBe(false);
    expect(isTextField({ tagName: 'BUTTON', type: 'submit' })).toBe(false);
    expect(isTextField({ tagName: 'A' })).toBe(false);
  });
});
