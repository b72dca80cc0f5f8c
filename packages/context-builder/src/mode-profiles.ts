/**
 * What the system prompt says about the kind of session. `postCompletion` replaces `run` once the
 * workflow is completed, so a finished run's model no longer steers by steps that are done.
 */
export interface ModeProfiles {
  chat: string;
  agent: string;
  run: string;
  postCompletion: string;
}

export const DEFAULT_MODE_PROFILES: Readonly<ModeProfiles> = {
  chat:
    'Mode: chat. Talk with the user: answer their questions and help with their requests, ' +
    'using the conversation so far as context.',
  agent:
    'Mode: agent. Act on the user’s behalf: use the tools available to you to do the work, ' +
    'check what they return, and report what you did and what you found.',
  run:
    'Mode: workflow run. You are executing one step of a workflow: follow the current step’s ' +
    'instruction, use the tools you need, and make clear when the step is done and which way ' +
    'the workflow should go next.',
  postCompletion:
    'Mode: workflow run, completed. The workflow has finished and no step is active. Answer the ' +
    'user’s follow-up questions about the run and its results; do not start or continue workflow steps.',
};
