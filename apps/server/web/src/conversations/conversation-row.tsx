import type { ConversationSummary } from '@cairn/core';
import { useEffect, useRef, useState } from 'preact/hooks';
import { timeAgo } from '../format-time.js';
import { RenameField } from './rename-field.js';

export interface ConversationRowProps {
  conversation: ConversationSummary;
  selected: boolean;
  /** Created on this page and not stored yet: no title, nothing to rename or delete. */
  draft: boolean;
  onRename(id: string, title: string): Promise<void>;
  onDelete(conversation: ConversationSummary): void;
}

/** One conversation of the list: a link to it, and its Rename and Delete actions. */
export function ConversationRow({ conversation, selected, draft, onRename, onDelete }: ConversationRowProps) {
  const [renaming, setRenaming] = useState(false);
  const link = useRef<HTMLAnchorElement>(null);
  const wasRenaming = useRef(false);
  // Back from the field: focus returns to the row rather than to the page's start.
  useEffect(() => {
    if (wasRenaming.current && !renaming) link.current?.focus();
    wasRenaming.current = renaming;
  }, [renaming]);

  const title = conversation.title ?? (draft ? 'New conversation' : conversation.id);
  if (renaming) {
    return (
      <li class="conversation-row renaming">
        <RenameField
          initialTitle={conversation.title ?? ''}
          onSave={(newTitle) => onRename(conversation.id, newTitle)}
          onClose={() => setRenaming(false)}
        />
      </li>
    );
  }
  return (
    <li class="conversation-row">
      <a
        ref={link}
        href={`#${encodeURIComponent(conversation.id)}`}
        aria-current={selected ? 'page' : undefined}
      >
        <span class="conversation-title">{title}</span>
        <span class="conversation-meta">
          {draft
            ? 'Not sent yet'
            : `${conversation.messageCount} message${conversation.messageCount === 1 ? '' : 's'} · ${timeAgo(conversation.updatedAt)}`}
        </span>
      </a>
      {!draft && (
        <span class="row-actions">
          <button type="button" aria-label={`Rename “${title}”`} onClick={() => setRenaming(true)}>
            Rename
          </button>
          <button type="button" aria-label={`Delete “${title}”`} onClick={() => onDelete(conversation)}>
            Delete
          </button>
        </span>
      )}
    </li>
  );
}
