import { hostname } from 'node:os';

/** This machine's name, as lock files and queue tickets record their owner's. */
export const HOST = hostname();

/** Whether process `pid` of this machine is running (one we may not signal is). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
