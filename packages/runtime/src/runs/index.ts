export {
  type CompleteStepInput,
  completeStep,
  edgeChoices,
  type StepTransition,
  transitionText,
} from './complete-step.js';
export { createRunApi, RUN_CONTINUE_TEXT, RUN_START_TEXT, type RunApiOptions } from './create-run-api.js';
export {
  DEFAULT_RUN_RECORD_PAGE_SIZE,
  loadRunState,
  type ReadRunRecordOptions,
  readRunState,
  readRunWorkflow,
} from './read-run-records.js';
export { readWorkflowFile, WORKFLOW_FORMAT_URL } from './read-workflow-file.js';
export { currentNode, runContextFor } from './run-context-for.js';
export {
  isRunStateMessage,
  isRunWorkflowMessage,
  parseRunStateMessage,
  parseRunWorkflowMessage,
  RUN_STATE_PART_TYPE,
  RUN_WORKFLOW_PART_TYPE,
  runStateMessage,
  runWorkflowMessage,
} from './run-records.js';
export {
  assertRunId,
  type RunState,
  RunStateSchema,
  type RunWorkflowRecord,
  RunWorkflowRecordSchema,
  runConversationId,
  runIdOfConversation,
} from './run-state.js';
export type {
  RunApi,
  RunContinueParams,
  RunEvent,
  RunEventListener,
  RunPage,
  RunRecoverParams,
  RunResult,
  RunStartParams,
  RunStepChangedEvent,
} from './run-types.js';
export {
  isEndNode,
  outgoingEdges,
  parseWorkflowDefinition,
  parseWorkflowPackage,
  type WorkflowDefinition,
  WorkflowDefinitionSchema,
  type WorkflowEdge,
  WorkflowEdgeSchema,
  type WorkflowNode,
  WorkflowNodeSchema,
  type WorkflowPackage,
  WorkflowPackageSchema,
  workflowDefinitionIssues,
  workflowNode,
  workflowPackageIssues,
} from './workflow-definition.js';
export {
  createWorkflowRegistry,
  INLINE_PACKAGE_NAME,
  type ResolvedWorkflow,
  type WorkflowRef,
  type WorkflowRegistry,
} from './workflow-registry.js';
export {
  COMPLETE_STEP_TOOL_NAME,
  type CompleteStepOutput,
  createWorkflowTools,
  type WorkflowToolsOptions,
} from './workflow-tools.js';
