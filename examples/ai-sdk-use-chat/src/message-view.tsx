import { type ChatAddToolApproveResponseFunction, isToolUIPart } from 'ai';
import { type CairnUIMessage, describeMetadata } from './chat-message.ts';
import { ToolCallView } from './tool-call-view.tsx';

/**
 * One message: its parts in order, and for an answer the model and tokens it used. A tool call waiting
 * for approval is answered with `onApprovalResponse` (`useChat`'s `addToolApprovalResponse`).
 */
export function MessageView({
  message,
  onApprovalResponse,
}: {
  message: CairnUIMessage;
  onApprovalResponse: ChatAddToolApproveResponseFunction;
}) {
  const footer = message.role === 'assistant' ? describeMetadata(message.metadata) : undefined;
  // An answer that failed before its first word has only its step markers: no empty bubble.
  const shown = message.parts.some(
    (part) => part.type === 'text' || part.type === 'reasoning' || part.type === 'file' || isToolUIPart(part),
  );
  if (!shown && footer === undefined) return null;
  return (
    <article className={`message message-${message.role}`} data-testid={`message-${message.role}`}>
      {message.parts.map((part, index) => {
        const key = `${message.id}-${index}`;
        if (part.type === 'text') {
          return (
            <p key={key} className="text" data-testid="text">
              {part.text}
            </p>
          );
        }
        if (part.type === 'reasoning') {
          // Collapsed: the answer is what the reader came for; the thinking is a click away.
          return (
            <details key={key} className="reasoning" data-testid="reasoning">
              <summary>{part.state === 'streaming' ? 'Thinking…' : 'Reasoning'}</summary>
              <p>{part.text}</p>
            </details>
          );
        }
        if (isToolUIPart(part)) {
          return <ToolCallView key={key} part={part} onApprovalResponse={onApprovalResponse} />;
        }
        if (part.type === 'file') {
          // What a tool returned as an image or file (a screenshot, a PDF), as a data URL.
          return part.mediaType.startsWith('image/') ? (
            <img key={key} className="file-image" src={part.url} alt={part.filename ?? 'image from a tool'} />
          ) : (
            <a key={key} className="file-link" href={part.url} download={part.filename ?? true}>
              {part.filename ?? part.mediaType}
            </a>
          );
        }
        return null;
      })}
      {footer === undefined ? null : (
        <footer className="message-meta" data-testid="message-meta">
          {footer}
        </footer>
      )}
    </article>
  );
}
