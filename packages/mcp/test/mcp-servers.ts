import { fileURLToPath } from 'node:url';
import type { McpServers } from '../src/index.js';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/** The real servers from npm, run with this Node (no npx: the test owns the process it kills). */
export const EVERYTHING_BIN = here('../node_modules/@modelcontextprotocol/server-everything/dist/index.js');
export const FILESYSTEM_BIN = here('../node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');
export const CHANGING_SERVER = here('./fixtures/changing-server.mjs');

export const everything: McpServers = {
  everything: { command: process.execPath, args: [EVERYTHING_BIN, 'stdio'] },
};

export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
