#!/usr/bin/env node
// Keeps the server running (`npm start`): a small parent that starts it again when it dies, without a
// crash loop. A death (a signal such as SIGKILL or an out-of-memory abort, or a non-zero exit) is
// followed by a restart after 1 s, 2 s, 4 s ... (at most 30 s); the 5th death within 60 s ends the
// supervisor with code 1 and says why. A clean stop is not a death: SIGINT/SIGTERM to the parent are
// passed to the server and stop both, and an exit with code 0 stays stopped.
//
//   node scripts/lib/supervise.mjs [--first-delay ms] [--max-delay ms] [--burst n] [--window ms] -- cmd args...
import { spawn } from 'node:child_process';
import { pathToFileURL } from 'node:url';

export const RESTART_LIMITS = { firstDelayMs: 1000, maxDelayMs: 30_000, burst: 5, windowMs: 60_000 };

const seconds = (ms) => `${+(ms / 1000).toFixed(1)} s`;

/**
 * Runs `command` until it stops cleanly or dies too often; resolves with the exit code the supervisor
 * should end with (the server's own on a stop, 1 when it gave up).
 */
export function supervise(command, args, { cwd, env, stdio = 'inherit', log = (line) => process.stderr.write(`${line}\n`), ...limits } = {}) {
  const { firstDelayMs, maxDelayMs, burst, windowMs } = { ...RESTART_LIMITS, ...limits };
  return new Promise((resolve) => {
    let child = null;
    let timer = null;
    let stopping = false;
    const deaths = [];
    const finish = (code) => {
      for (const sig of ['SIGINT', 'SIGTERM']) process.off(sig, onSignal);
      resolve(code);
    };
    const start = () => {
      timer = null;
      child = spawn(command, args, { cwd, env, stdio });
      child.once('error', (err) => {
        // Not started at all (the program is missing): no restart would help.
        log(`linguaport: cannot start ${command}: ${err.message}`);
        child = null;
        finish(1);
      });
      child.once('exit', onExit);
    };
    function onExit(code, signal) {
      child = null;
      if (stopping) return finish(code ?? 0);
      if (code === 0) return finish(0);
      const now = Date.now();
      deaths.push(now);
      while (deaths[0] <= now - windowMs) deaths.shift();
      const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
      if (deaths.length >= burst) {
        log(`linguaport: the server ${how}. It died ${deaths.length} times within ${seconds(windowMs)}, so it is not restarted again: see the errors above, fix the cause and start it again.`);
        return finish(1);
      }
      const delay = Math.min(firstDelayMs * 2 ** (deaths.length - 1), maxDelayMs);
      log(`linguaport: the server ${how}; starting it again in ${seconds(delay)} (${deaths.length} of ${burst} deaths within ${seconds(windowMs)} before it is left stopped)`);
      timer = setTimeout(start, delay);
    }
    function onSignal(sig) {
      stopping = true;
      if (timer) {
        clearTimeout(timer);
        timer = null;
        return finish(0);
      }
      child?.kill(sig);
    }
    for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, onSignal);
    start();
  });
}

/** The command line: limits as options, then `--` and the command. */
export function parseArgs(argv) {
  const split = argv.indexOf('--');
  if (split < 0 || split === argv.length - 1) throw new Error('usage: supervise.mjs [--first-delay ms] [--max-delay ms] [--burst n] [--window ms] -- command args...');
  const names = { '--first-delay': 'firstDelayMs', '--max-delay': 'maxDelayMs', '--burst': 'burst', '--window': 'windowMs' };
  const limits = {};
  const opts = argv.slice(0, split);
  for (let i = 0; i < opts.length; i += 2) {
    const key = names[opts[i]];
    const value = Number(opts[i + 1]);
    if (!key || !Number.isFinite(value) || value <= 0) throw new Error(`supervise.mjs: bad option ${opts[i]} ${opts[i + 1] ?? ''}`);
    limits[key] = value;
  }
  return { limits, command: argv[split + 1], args: argv.slice(split + 2) };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    const { limits, command, args } = parseArgs(process.argv.slice(2));
    supervise(command, args, limits).then((code) => process.exit(code));
  } catch (err) {
    process.stderr.write(`${err.message}\n`);
    process.exit(2);
  }
}
