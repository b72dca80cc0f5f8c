import { z } from 'zod';

// Its own module so that role-rules.ts can name the roles without importing conversation-message.ts,
// which imports role-rules.ts (no import cycle).
export const ConversationMessageRoleSchema = z.enum(['user', 'assistant', 'system', 'tool']);
export type ConversationMessageRole = z.infer<typeof ConversationMessageRoleSchema>;
