import { readFileSync } from 'node:fs';

/**
 * Fields of /proc/<pid>/stat from the pid on (`[pid, state, ppid, pgrp, ...]`), or null when no such
 * process. The command name (field 2) may hold spaces and parentheses: fields count from the last `)`.
 */
export function procStatFields(pid: number | string): string[] | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return [String(pid), ...stat.slice(stat.lastIndexOf(')') + 2).split(' ')];
  } catch {
    return null;
  }
}

/** True while process `pid` runs (one killed and not yet reaped, a zombie, does not). */
export function processRunning(pid: number): boolean {
  const state = procStatFields(pid)?.[1];
  return state !== undefined && state !== 'Z' && state !== 'X';
}
