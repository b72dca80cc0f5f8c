import { useChat } from '@ai-sdk/react';
import { DefaultChatTransport, lastAssistantMessageIsCompleteWithApprovalResponses } from 'ai';
import { type FormEvent, useMemo, useState } from 'react';
import { type CairnUIMessage, describeError } from './chat-message.ts';
import { startNewConversation } from './conversation-url.ts';
import { MessageView } from './message-view.tsx';

/**
 * `stop()` only closes this page's stream, and cairn-server keeps running a turn whose client went
 * away (so a reload can resume it): Stop also asks the server to abort the turn.
 */
async function abortTurn(conversationId: string): Promise<void> {
  await fetch(`/v1/conversations/${encodeURIComponent(conversationId)}/abort`, { method: 'POST' });
}

export function Chat({
  conversationId,
  initialMessages,
}: {
  conversationId: string;
  initialMessages: CairnUIMessage[];
}) {
  const transport = useMemo(
    () =>
      new DefaultChatTransport<CairnUIMessage>({
        // This page's origin: Vite forwards `/v1` to cairn-server and adds the token (vite.config.ts).
        api: '/v1/chat',
        // The server reads only the new message (the context comes from its store), and its body
        // limit counts the whole request: a long chat would hit it if every request carried it all.
        prepareSendMessagesRequest: ({ id, messages, trigger, messageId, body }) => ({
          body: { ...body, id, trigger, messageId, messages: messages.slice(-1) },
        }),
      }),
    [],
  );
  const { messages, sendMessage, status, error, stop, regenerate, clearError, addToolApprovalResponse } =
    useChat<CairnUIMessage>({
      id: conversationId,
      messages: initialMessages,
      transport,
      // A reload while an answer streams picks it up again (`GET /v1/chat/:id/stream`).
      resume: true,
      // Once every call waiting for approval is answered (Approve / Deny), the answered message goes
      // back to the server, which stores the decisions and goes on in the same answer.
      sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
    });
  const [input, setInput] = useState('');
  const busy = status === 'submitted' || status === 'streaming';

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const text = input.trim();
    if (text === '' || busy) return;
    setInput('');
    void sendMessage({ text });
  };

  const onStop = () => {
    void stop();
    // Should the abort not get through, the turn finishes on the server: its answer is stored and
    // shows after a reload. Nothing to tell the user now.
    abortTurn(conversationId).catch(() => undefined);
  };

  const onRetry = () => {
    clearError();
    void regenerate();
  };

  return (
    <main className="chat" data-status={status}>
      <header className="chat-head">
        <h1>Cairn · useChat</h1>
        <code className="conversation-id" data-testid="conversation-id">
          {conversationId}
        </code>
        <button type="button" onClick={startNewConversation}>
          New chat
        </button>
      </header>
      <section className="messages" aria-live="polite">
        {messages.map((message) => (
          <MessageView key={message.id} message={message} onApprovalResponse={addToolApprovalResponse} />
        ))}
        {status === 'submitted' ? <p className="pending">…</p> : null}
        {error === undefined ? null : (
          <div className="error" role="alert" data-testid="chat-error">
            <span>{describeError(error)}</span>
            <button type="button" onClick={onRetry}>
              Retry
            </button>
          </div>
        )}
      </section>
      <form className="composer" onSubmit={onSubmit}>
        <input
          aria-label="Message"
          value={input}
          placeholder="Ask something…"
          onChange={(event) => setInput(event.target.value)}
        />
        {busy ? (
          <button type="button" onClick={onStop}>
            Stop
          </button>
        ) : (
          <button type="submit" disabled={input.trim() === ''}>
            Send
          </button>
        )}
      </form>
    </main>
  );
}
