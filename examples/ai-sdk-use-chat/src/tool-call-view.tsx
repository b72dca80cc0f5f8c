import {
  type ChatAddToolApproveResponseFunction,
  type DynamicToolUIPart,
  getToolName,
  type ToolUIPart,
} from 'ai';
import { ToolApprovalForm } from './tool-approval-form.tsx';

function json(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value, null, 2);
}

/** Where the call stands, in the words its head shows. */
function statusOf(part: ToolUIPart | DynamicToolUIPart): string {
  switch (part.state) {
    case 'output-available':
      return 'done';
    case 'output-error':
      return 'failed';
    case 'output-denied':
      return 'denied';
    case 'approval-requested':
      return 'needs approval';
    // Answered here, on its way to the server: approved, it runs next.
    case 'approval-responded':
      return part.approval.approved ? 'approved' : 'denied';
    default:
      return 'running';
  }
}

/**
 * A tool call: its name, its input, and its output or error once there is one; a call that waits for
 * approval asks for it, a denied one says so (with the reason given).
 */
export function ToolCallView({
  part,
  onApprovalResponse,
}: {
  part: ToolUIPart | DynamicToolUIPart;
  onApprovalResponse: ChatAddToolApproveResponseFunction;
}) {
  const name = getToolName(part);
  return (
    <div
      className={`tool tool-${part.state}`}
      data-testid="tool-call"
      data-tool-name={name}
      data-state={part.state}
    >
      <div className="tool-head">
        <span className="tool-name">{name}</span>
        <span className="tool-status">{statusOf(part)}</span>
      </div>
      {part.input === undefined ? null : <pre className="tool-input">{json(part.input)}</pre>}
      {part.state === 'approval-requested' ? (
        <ToolApprovalForm approvalId={part.approval.id} onApprovalResponse={onApprovalResponse} />
      ) : null}
      {part.state === 'output-available' ? (
        <pre className="tool-output" data-testid="tool-output">
          {json(part.output)}
        </pre>
      ) : null}
      {part.state === 'output-error' ? (
        <pre className="tool-error" data-testid="tool-error">
          {part.errorText}
        </pre>
      ) : null}
      {part.state === 'output-denied' && part.approval.reason !== undefined ? (
        <p className="tool-denial" data-testid="tool-denial">
          Denied: {part.approval.reason}
        </p>
      ) : null}
    </div>
  );
}
