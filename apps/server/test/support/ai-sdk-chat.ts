// What `useChat` is made of: the AI SDK's own chat class and transport, with plain state instead of
// React's, pointed at a running server.
import {
  AbstractChat,
  type ChatInit,
  type ChatState,
  type ChatStatus,
  DefaultChatTransport,
  type UIMessage,
} from 'ai';

/** The AI SDK transport to `/v1/chat` of the server at `baseURL`, with `token` as the bearer. */
export const transportFor = (app: { baseURL: string }, token: string | undefined = undefined) =>
  new DefaultChatTransport<UIMessage>({
    api: `${app.baseURL}/v1/chat`,
    ...(token === undefined ? {} : { headers: { authorization: `Bearer ${token}` } }),
  });

class PlainChatState implements ChatState<UIMessage> {
  status: ChatStatus = 'ready';
  error: Error | undefined = undefined;
  constructor(public messages: UIMessage[]) {}
  pushMessage = (message: UIMessage) => {
    this.messages = [...this.messages, message];
  };
  popMessage = () => {
    this.messages = this.messages.slice(0, -1);
  };
  replaceMessage = (index: number, message: UIMessage) => {
    this.messages = this.messages.map((old, at) => (at === index ? message : old));
  };
  snapshot = <T>(thing: T): T => structuredClone(thing);
}

/**
 * The AI SDK chat class with plain state; `init` as `useChat` takes it (`messages` a reloaded page
 * starts with, `sendAutomaticallyWhen`, …).
 */
export class Chat extends AbstractChat<UIMessage> {
  constructor(
    id: string,
    transport: DefaultChatTransport<UIMessage>,
    { messages = [], ...init }: Omit<ChatInit<UIMessage>, 'id' | 'transport'> = {},
  ) {
    super({ ...init, id, transport, state: new PlainChatState(messages) });
  }
  get chatState() {
    return this.state;
  }
}
