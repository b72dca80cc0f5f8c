// A worker thread of the turn phase (conversation-load.mjs): `turns` turns in each of the
// conversations it is given (created in the create burst), started with autocannon's and shaped
// like them, but reading every SSE event as it arrives (fetch + stream
// reader) instead of waiting for the whole body. For each `agent_output` text chunk it records the
// time the chunk was read off the socket here − the emit (and due) time the model wrote into it.
// Its own thread, so autocannon's work on the main thread does not delay the reads.
//
// Messages: `clock` is answered `{ type: 'clock', now }`; `start` runs the conversations, then
// `{ type: 'result', … }` is posted.
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { DUE_PATTERN, STAMP_PATTERN, wallClock } from './stamped-model.mjs';

const { baseURL, apiToken, conversationIds, turns } = workerData;
// The reads are the measurement: on a machine short of cores they come before the load generator's
// and the server's work, as a client's on another machine would. Raising a thread's priority takes
// the privilege to (root); without it the sampler runs as before.
try {
  setPriority(-10);
} catch {}
const EMIT_PATTERN = new RegExp(STAMP_PATTERN.source);
const headers = { authorization: `Bearer ${apiToken}`, 'content-type': 'application/json' };
const latencies = [];
const sinceDue = [];
const problems = [];
let turnsDone = 0;

/** One turn over SSE; returns whether it ended with `done` `{ success: true }`. */
async function streamTurn(conversationId, content) {
  const response = await fetch(`${baseURL}/v1/conversations/${conversationId}/messages`, {
    method: 'POST',
    headers: { ...headers, accept: 'text/event-stream' },
    body: JSON.stringify({ content }),
  });
  if (response.status !== 200) {
    problems.push(`turn: HTTP ${response.status} ${await response.text()}`);
    return false;
  }
  const decoder = new TextDecoder();
  let buffer = '';
  let success = false;
  for await (const bytes of response.body) {
    // One arrival time for everything in this read: what the socket delivered together.
    const arrived = wallClock();
    buffer += decoder.decode(bytes, { stream: true });
    let end = buffer.indexOf('\n\n');
    while (end !== -1) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      end = buffer.indexOf('\n\n');
      const event = /^event: (.*)$/m.exec(block)?.[1];
      const data = /^data: (.*)$/m.exec(block)?.[1];
      if (event === 'done') success = JSON.parse(data).success === true;
      if (event !== 'agent_output') continue;
      const output = JSON.parse(data);
      if (output.type !== 'text_delta') continue;
      latencies.push(arrived - Number(EMIT_PATTERN.exec(output.delta)?.[1]));
      sinceDue.push(arrived - Number(DUE_PATTERN.exec(output.delta)?.[1]));
    }
  }
  if (!success) problems.push(`turn: no successful done event in ${conversationId}`);
  return success;
}

async function conversation(id, index) {
  for (let turn = 1; turn <= turns; turn++) {
    if (await streamTurn(id, `sampled ${index}, turn ${turn}: hello`)) turnsDone++;
  }
}

async function run() {
  const outcomes = await Promise.allSettled(conversationIds.map((id, index) => conversation(id, index)));
  for (const outcome of outcomes) {
    if (outcome.status === 'rejected') problems.push(`conversation: ${outcome.reason}`);
  }
  parentPort.postMessage({
    type: 'result',
    latencies: Float64Array.from(latencies),
    sinceDue: Float64Array.from(sinceDue),
    turnsDone,
    problems,
  });
}

parentPort.on('message', (message) => {
  if (message === 'clock') parentPort.postMessage({ type: 'clock', now: wallClock() });
  else if (message === 'start') void run();
});
