// A model module for `runClusterPrimary({ modelModule })`: every worker imports it and calls
// `createModel()`. Answers each turn with the worker's pid, so a test can tell who answered.
import { ScriptedModel } from '@cairn/testing';

export function createModel() {
  return new ScriptedModel({ turns: () => ({ text: `scripted in ${process.pid}` }) });
}
