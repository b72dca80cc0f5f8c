import type { z } from 'zod';
import type { JsonSchema } from '../model/model-adapter.js';
import type { ConversationMessageRole } from './conversation-message-role.js';

// The rules of a conversation message that depend on its role, in one table. Both the zod schema
// (`checkRoleRules`) and the JSON Schema export (`roleRulesJsonSchema`) are derived from it.

/** Fields only some roles may carry. */
const ROLE_ONLY_FIELDS = {
  tool_calls: ['assistant'],
  reasoning: ['assistant'],
  tool_call_id: ['tool'],
  isError: ['tool'],
  structuredResult: ['tool'],
  interrupted: ['tool', 'assistant'],
  compaction: ['system'],
  approval: ['system'],
  toolIntent: ['system'],
} as const satisfies Record<string, readonly ConversationMessageRole[]>;

/** Fields a role requires beyond the ones every message has. */
const REQUIRED_BY_ROLE: Partial<Record<ConversationMessageRole, string[]>> = { tool: ['tool_call_id'] };

/** Roles that must have `content` (text or parts); an assistant may have `null` or none (tool calls only). */
const CONTENT_ROLES: readonly ConversationMessageRole[] = ['user', 'system', 'tool'];

/** Roles whose parts may only be text: what a user sends and a tool returns may hold images and files. */
const TEXT_PART_ROLES: readonly ConversationMessageRole[] = ['system', 'assistant'];

// Every stored message passes through this check: the table is walked without allocating.
const ROLE_ONLY_ENTRIES = Object.entries(ROLE_ONLY_FIELDS);

type RoleRuleSubject = Record<string, unknown> & {
  role: ConversationMessageRole;
  tool_calls?: ReadonlyArray<{ id: string }> | undefined;
};

/** zod refinement: runs only once every field has passed its own check. */
export function checkRoleRules(message: RoleRuleSubject, ctx: z.RefinementCtx): void {
  const { role } = message;
  for (const [field, owners] of ROLE_ONLY_ENTRIES) {
    if (message[field] !== undefined && !(owners as readonly string[]).includes(role)) {
      ctx.addIssue({
        code: 'custom',
        path: [field],
        message: `only ${owners.join(' and ')} messages have ${field}`,
      });
    }
  }
  for (const field of REQUIRED_BY_ROLE[role] ?? []) {
    if (message[field] === undefined) {
      ctx.addIssue({ code: 'custom', path: [field], message: `a ${role} message needs ${field}` });
    }
  }
  const { content } = message;
  if (CONTENT_ROLES.includes(role) && typeof content !== 'string' && !Array.isArray(content)) {
    ctx.addIssue({ code: 'custom', path: ['content'], message: `a ${role} message needs content` });
  }
  if (Array.isArray(content) && TEXT_PART_ROLES.includes(role)) {
    content.forEach((part: { type?: unknown }, index) => {
      if (part?.type === 'text') return;
      ctx.addIssue({
        code: 'custom',
        path: ['content', index, 'type'],
        message: `a ${role} message carries text parts only, not ${String(part?.type)}`,
      });
    });
  }
  const calls = message.tool_calls;
  if (calls === undefined || calls.length < 2) return;
  const seen = new Set<string>();
  calls.forEach((call, index) => {
    if (seen.has(call.id)) {
      ctx.addIssue({
        code: 'custom',
        path: ['tool_calls', index, 'id'],
        message: `duplicate tool call id ${call.id}`,
      });
    }
    seen.add(call.id);
  });
}

/**
 * The same rules as JSON Schema `allOf` entries. One rule has no JSON Schema form and is left out:
 * tool call ids must be unique within a message.
 */
export function roleRulesJsonSchema(): JsonSchema[] {
  const isRole = (roles: readonly string[]) => ({ properties: { role: { enum: [...roles] } } });
  return [
    ...Object.entries(ROLE_ONLY_FIELDS).map(([field, owners]) => ({
      if: { required: [field] },
      then: isRole(owners),
    })),
    ...Object.entries(REQUIRED_BY_ROLE).map(([role, fields]) => ({
      if: isRole([role]),
      then: { required: fields },
    })),
    {
      if: isRole(CONTENT_ROLES),
      then: { required: ['content'], properties: { content: { type: ['string', 'array'] } } },
    },
    {
      if: isRole(TEXT_PART_ROLES),
      then: {
        properties: {
          content: {
            anyOf: [{ not: { type: 'array' } }, { items: { properties: { type: { const: 'text' } } } }],
          },
        },
      },
    },
  ];
}
