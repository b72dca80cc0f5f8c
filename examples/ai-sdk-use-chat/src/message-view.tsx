import { type DynamicToolUIPart, getToolName, isToolUIPart, type ToolUIPart } from 'ai';
import { type CairnUIMessage, describeMetadata } from './chat-message.ts';

function json(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value, null, 2);
}

/** A tool call: its name, its input, and its output or error once there is one. */
function ToolCallView({ part }: { part: ToolUIPart | DynamicToolUIPart }) {
  const name = getToolName(part);
  const done = part.state === 'output-available';
  const failed = part.state === 'output-error';
  const status = done ? 'done' : failed ? 'failed' : part.state === 'output-denied' ? 'denied' : 'running';
  return (
    <div
      className={`tool tool-${status}`}
      data-testid="tool-call"
      data-tool-name={name}
      data-state={part.state}
    >
      <div className="tool-head">
        <span className="tool-name">{name}</span>
        <span className="tool-status">{status}</span>
      </div>
      {part.input === undefined ? null : <pre className="tool-input">{json(part.input)}</pre>}
      {done ? (
        <pre className="tool-output" data-testid="tool-output">
          {json(part.output)}
        </pre>
      ) : null}
      {failed ? (
        <pre className="tool-error" data-testid="tool-error">
          {part.errorText}
        </pre>
      ) : null}
    </div>
  );
}

/** One message: its parts in order, and for an answer the model and tokens it used. */
export function MessageView({ message }: { message: CairnUIMessage }) {
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
        if (isToolUIPart(part)) return <ToolCallView key={key} part={part} />;
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
