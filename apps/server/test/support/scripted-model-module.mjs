// A model module for `runClusterPrimary({ modelModule })`: every worker imports it and calls
// `createModel()`. Answers each turn with the worker's pid, so a test can tell who answered. A user
// message `block <ms>` first holds the worker's event loop that long (a test of its delay figures).
import { ScriptedModel } from '@cairn/testing';

const BLOCK = /^block (\d+)$/;

export function createModel() {
  return new ScriptedModel({
    turns: (request) => {
      const last = request.messages.at(-1);
      const block = typeof last?.content === 'string' ? BLOCK.exec(last.content) : null;
      if (block !== null) {
        const until = performance.now() + Number(block[1]);
        while (performance.now() < until) {
          // Busy: the point is an event loop that cannot turn.
        }
      }
      return { text: `scripted in ${process.pid}` };
    },
  });
}
