import type { ConversationMessage } from '@cairn/core';
import { useEffect, useRef, useState } from 'preact/hooks';
import { listApprovals } from './approval-api.js';

// Decisions a person made (an expiry or a new message gives no reason of its own).
const DECIDED_BY_A_PERSON = new Set(['approve', 'deny', 'edit']);

/**
 * The reasons given with the conversation's decisions, by approval id. The display view says how a
 * call was decided, not why: `GET …/approvals` is read when a decision it has not seen shows up.
 */
export function useApprovalReasons(
  conversationId: string,
  messages: readonly ConversationMessage[],
): ReadonlyMap<string, string> {
  const [reasons, setReasons] = useState<ReadonlyMap<string, string>>(() => new Map());
  // Asked about once each, found or not: a failed look leaves the outcome shown without a reason.
  const asked = useRef(new Set<string>());
  const unasked = messages.flatMap(({ toolExecution }) => {
    const approval = toolExecution?.approval;
    if (approval?.outcome === undefined || !DECIDED_BY_A_PERSON.has(approval.outcome)) return [];
    return asked.current.has(approval.id) ? [] : [approval.id];
  });
  const key = unasked.join('\n');
  // Until unmounted, not until the key changes: the next render's key is empty once these are asked.
  const mounted = useRef(true);
  useEffect(
    () => () => {
      mounted.current = false;
    },
    [],
  );
  useEffect(() => {
    if (key === '') return;
    for (const id of key.split('\n')) asked.current.add(id);
    listApprovals(conversationId)
      .then((approvals) => {
        if (!mounted.current) return;
        setReasons((current) => {
          const next = new Map(current);
          for (const { id, decision } of approvals) {
            if (decision?.reason !== undefined && decision.reason !== '') next.set(id, decision.reason);
          }
          return next;
        });
      })
      .catch(() => undefined);
  }, [conversationId, key]);
  return reasons;
}
