import { readdirSync, readFileSync } from 'node:fs';

/** A running process: its id and its process group. */
export interface ProcessEntry {
  pid: number;
  pgid: number;
}

// `/proc/<pid>/stat` is `pid (comm) state ppid pgrp …`; comm may hold spaces and parentheses, so the
// fields are read after its last `)`.
function readStat(pid: string): { ppid: number; pgid: number } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { ppid: Number(fields[1]), pgid: Number(fields[2]) };
  } catch {
    // It exited meanwhile.
    return undefined;
  }
}

/**
 * Every process descended from `pid` (not `pid` itself), read from `/proc`: empty where there is
 * no `/proc` (macOS, Windows). A CLI may start a tool's command in a process group of its own
 * (Gemini CLI does), where signalling the CLI's group does not reach it; once the CLI has exited
 * such a command is an orphan nothing links to the run any more, so the tree is read while the CLI
 * still runs.
 */
export function descendantsOf(pid: number): ProcessEntry[] {
  let names: string[];
  try {
    names = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return [];
  }
  const children = new Map<number, ProcessEntry[]>();
  for (const name of names) {
    const stat = readStat(name);
    if (stat === undefined) continue;
    const siblings = children.get(stat.ppid) ?? [];
    siblings.push({ pid: Number(name), pgid: stat.pgid });
    children.set(stat.ppid, siblings);
  }
  const found: ProcessEntry[] = [];
  const queue = [pid];
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    for (const child of children.get(next) ?? []) {
      found.push(child);
      queue.push(child.pid);
    }
  }
  return found;
}

/** The process group of `pid`, or undefined when it is not running (or there is no `/proc`). */
export function processGroupOf(pid: number): number | undefined {
  return readStat(String(pid))?.pgid;
}
