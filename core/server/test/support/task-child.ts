// A server-side process that owns a task service, for the restart test: `start` queues a counting task
// and works it; `resume` only works (what a restarted server does). It prints one line per event:
// `task <id>`, `step <n>`, `done <output json>`. The test kills it with SIGKILL mid-run.
import { z } from 'zod';
import { createEventBus } from '../../src/bus/events.js';
import { coreMigrations } from '../../src/db/core-migrations.js';
import { createDatabase } from '../../src/db/database.js';
import { runMigrations } from '../../src/db/migrations.js';
import { createJobService } from '../../src/jobs/queue.js';
import { taskMigrations } from '../../src/tasks/migrations.js';
import { createTaskService } from '../../src/tasks/service.js';

const [mode, dataDir, databaseUrl] = process.argv.slice(2);
const database = await createDatabase({ dataDir: dataDir!, databaseUrl: databaseUrl || null });
await runMigrations(database, 'core', coreMigrations);
await runMigrations(database, 'core.tasks', taskMigrations);
const jobs = await createJobService(database, { pollingIntervalSeconds: 0.5 });
const bus = await createEventBus(database);
const tasks = createTaskService({ database, jobs, bus, heartbeatMs: 100, staleAfterMs: 2_000, sweepMs: 300 });
const say = (line: string) => process.stdout.write(`${line}\n`);

const counting = await tasks.forPlugin('restart-test').define({
  name: 'count',
  input: z.object({ steps: z.number().int().positive() }),
  async run(ctx) {
    const from = (ctx.resumeFrom as { step: number } | null)?.step ?? 0;
    const ran: number[] = [];
    for (let step = from + 1; step <= ctx.input.steps; step++) {
      await new Promise((r) => setTimeout(r, 150));
      ran.push(step);
      await ctx.checkpoint({ step }, { done: step, total: ctx.input.steps });
      say(`step ${step}`);
    }
    return { resumedFrom: from, ran, attempt: ctx.attempt };
  },
});

bus.events('task.changed').subscribe((event) => {
  const info = event.payload as { id: string; state: string; output: unknown };
  if (info.state === 'completed') {
    say(`done ${JSON.stringify(info.output)}`);
    void (async () => {
      await tasks.stop();
      await jobs.stop();
      await bus.close();
      await database.close();
      process.exit(0);
    })();
  }
});

if (mode === 'start') {
  const info = await counting.start({ steps: 12 }, { ownerId: 1, title: 'count to twelve' });
  say(`task ${info.id}`);
}
