// Everything the actions run, loaded on demand by the program (see `load` in program.ts).
export { lineWithAttachments, withParts } from '../attachments/message-with-attachments.js';
export { readAttachment } from '../attachments/read-attachment.js';
export { conversationToContinue } from '../chat/conversation-to-continue.js';
export { runInteractiveChat } from '../chat/interactive-chat.js';
export { runAgentCommand } from '../commands/agent-command.js';
export { decideApproval, listApprovals } from '../commands/approvals-command.js';
export {
  deleteConversation,
  exportConversation,
  listConversations,
  showConversation,
} from '../commands/conversations-command.js';
export { runConvertCommand } from '../commands/convert-command.js';
export { runDemoCommand } from '../commands/demo-command.js';
export { runPrintCommand } from '../commands/print-command.js';
export {
  assertRunExists,
  continueRun,
  listRuns,
  runWorkflowFile,
  showRun,
} from '../commands/runs-command.js';
export { initWorkflowFile } from '../commands/workflow-init-command.js';
export { readWorkflowFile } from '../runs/workflow-file.js';
export { withSession, withStore } from './with-session.js';
