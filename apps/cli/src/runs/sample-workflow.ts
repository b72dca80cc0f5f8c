import { WORKFLOW_FORMAT_URL } from '@cairn/runtime';

/** Where `cairn workflow init` writes when given no file. */
export const DEFAULT_WORKFLOW_FILE = 'workflow.yaml';

/** What the printed next command asks the sample to do. */
export const SAMPLE_WORKFLOW_INPUT = 'Review README.md';

/**
 * The workflow `cairn workflow init` writes, and the sample of both READMEs (a test keeps them the
 * same): every field of a workflow, a labelled choice with a default, a loop and a last step.
 */
export const SAMPLE_WORKFLOW_YAML = `# A Cairn workflow: the steps (nodes) a run goes through, and the ways (edges) between them.
# The format: ${WORKFLOW_FORMAT_URL}
id: review
name: Review a change
entry: read # the step a run starts at

nodes:
  - id: read
    name: Read
    instruction: >-
      Read what the user asked you to review (a file, a folder or a diff) and sum up in a
      few sentences what it does.
  - id: review
    name: Review
    instruction: >-
      Look for bugs, unclear code and missing tests, and list each finding with its file and
      line. Then complete this step: "approved" if nothing needs changing, else "needs changes".
  - id: fix
    name: Fix
    instruction: >-
      Propose a fix for each finding and ask the user which ones to make. Make those, then
      complete this step, so that the result is reviewed again.
  - id: report
    name: Report
    instruction: Tell the user what you reviewed, what you found and what was changed.

edges:
  - from: read
    to: review
  - from: review
    to: report
    label: approved # what the model passes to complete_step to take this edge
    default: true # taken when the model names no edge
  - from: review
    to: fix
    label: needs changes
  - from: fix
    to: review # back to the review: a loop
# No edge leaves "report": completing it completes the run.
`;
