import { describe, expect, it } from 'vitest';
import { startWarmTool, ToolError } from '../src/tools.js';

// A tool started ahead of its input: it reads the input by path (/dev/stdin) once handed over, answers
// like runTool, stops itself when idle, and is killed at its deadline or when the caller aborts.

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('startWarmTool', () => {
  it('hands the input over later, through a pipe the tool opens by path', async () => {
    const tool = startWarmTool('wc', ['-c', '/dev/stdin'], { idleMs: 60_000 });
    // The delay is the scenario ("later": the tool is already running when the input comes), not a wait for a result.
    await wait(100);
    expect(tool.ready).toBe(true);
    const { stdout } = await tool.run(new TextEncoder().encode('twelve bytes'), { timeoutMs: 10_000 });
    expect(stdout.trim()).toBe('12 /dev/stdin');
    expect(tool.ready).toBe(false);
    await expect(tool.run(new Uint8Array(1), { timeoutMs: 1000 })).rejects.toThrow(/runs once/);
  });

  it('stops itself once idle, and when told to', async () => {
    const idle = startWarmTool('cat', ['/dev/stdin'], { idleMs: 100 });
    await expect.poll(() => idle.ready, { timeout: 5000 }).toBe(false);
    const stopped = startWarmTool('cat', ['/dev/stdin'], { idleMs: 60_000 });
    stopped.stop();
    expect(stopped.ready).toBe(false);
  });

  it('reports a failing tool with its exit code and last words', async () => {
    const tool = startWarmTool('sh', ['-c', 'cat > /dev/null; echo "no model here" >&2; exit 3'], { idleMs: 60_000 });
    const err = await tool.run(new Uint8Array(4), { timeoutMs: 10_000 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ToolError);
    expect(err).toMatchObject({ exitCode: 3, detail: 'no model here' });
  });

  it('kills the tool at its deadline and when the caller aborts', async () => {
    const slow = startWarmTool('sleep', ['30'], { idleMs: 60_000 });
    await expect(slow.run(new Uint8Array(1), { timeoutMs: 200 })).rejects.toMatchObject({ name: 'ToolError', exitCode: null, message: expect.stringMatching(/longer than/) });
    const controller = new AbortController();
    const aborted = startWarmTool('sleep', ['30'], { idleMs: 60_000 });
    const running = aborted.run(new Uint8Array(1), { timeoutMs: 30_000, signal: controller.signal });
    setTimeout(() => controller.abort(new Error('caller gave up')), 100);
    await expect(running).rejects.toThrow('caller gave up');
  });
});
