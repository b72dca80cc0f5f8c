// The built package, imported by name in a separate Node process: importing it loads no provider
// SDK and no store backend, and each function loads only the one it is asked for (an app's
// start-up should not pay for three SDKs and three databases). Needs dist: the vitest global setup
// builds it when stale.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);

// Records, on the main thread, every bare specifier of the six lazily loaded packages; answers a
// 'flush' with 'flushed' on the same port, so that answer arrives after every specifier sent before it.
const HOOKS = `
let port;
export function initialize(data) {
  port = data.port;
  port.on('message', (message) => { if (message === 'flush') port.postMessage('flushed'); });
  port.unref();
}
export async function resolve(specifier, context, next) {
  if (/^@cairn\\/(provider-(openai|anthropic|gemini)|store-(fs|sqlite|postgres))$/.test(specifier)) port.postMessage(specifier);
  return next(specifier, context);
}`;

const SCRIPT = `
import { register } from 'node:module';
import { MessageChannel } from 'node:worker_threads';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
const loaded = new Set();
const { port1, port2 } = new MessageChannel();
let flushed;
port1.on('message', (message) => {
  if (message !== 'flushed') return void loaded.add(message);
  port1.unref();
  flushed();
});
port1.unref();
register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(HOOKS)}), {
  data: { port: port2 },
  transferList: [port2],
});
const settle = () => new Promise((resolve) => {
  flushed = resolve;
  port1.ref();
  port1.postMessage('flush');
});
const report = async (step) => { await settle(); console.log(step, JSON.stringify([...loaded].sort())); };
const connect = await import('@cairn/connect');
await report('import');
const store = await connect.openStore({ store: 'fs', dataDir: mkdtempSync(join(tmpdir(), 'cairn-connect-lazy-')) });
await store.close();
await report('fs');
await connect.createProviderAdapter('anthropic', { model: 'm', apiKey: 'k' });
await report('anthropic');
`;

describe('the built package', () => {
  it('loads a provider SDK or a store backend only when it is chosen', async () => {
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', SCRIPT], {
      cwd: fileURLToPath(new URL('..', import.meta.url)),
    });
    expect(stdout.trim().split('\n')).toEqual([
      'import []',
      'fs ["@cairn/store-fs"]',
      'anthropic ["@cairn/provider-anthropic","@cairn/store-fs"]',
    ]);
  });
});
