import { ApiError, Codes, pageOf, pageOffset, pageQuery, pageSchema, say, taskSchema, type Caller, type RouteDefinition } from '@linguaport/sdk/server';
import { task as taskMachine } from '@linguaport/sdk/shared';
import { z } from 'zod';
import type { Database } from '../db/database.js';
import { presentTask, type KernelTaskService } from './service.js';

/**
 * `/tasks`: the caller's own long work (every area's tasks in one list), one task, and cancel.
 * A task belongs to the user who started it; a super administrator sees and cancels everyone's.
 * Someone else's task answers 404, as a task that does not exist: ids tell nothing.
 */
export function taskRoutes(database: Database, tasks: KernelTaskService): RouteDefinition[] {
  const db = database.db;
  const taskId = z.object({ id: z.string().uuid() });
  // Every area's tasks: each one's output is its own.
  const task = taskSchema(z.unknown().describe("The task's output; its area documents its shape"));
  /** The caller's task (a super administrator's: anyone's), or 404 as for a task that does not exist. */
  async function ownTask(caller: Caller | null, id: string, headers: Record<string, string | string[] | undefined>) {
    const info = await tasks.get(id);
    if (!info || !caller || !(caller.isSuperAdmin || info.ownerId === caller.userId)) throw new ApiError(Codes.NOT_FOUND, say(headers, '任务不存在', 'The task does not exist'));
    return info;
  }

  return [
    {
      method: 'GET',
      url: '/tasks',
      access: 'signed-in',
      summary: 'List own tasks',
      response: { data: pageSchema(task) },
      schema: {
        query: z.object({
          ...pageQuery,
          state: z.enum(taskMachine.states).optional(),
          pluginId: z.string().max(100).optional(),
          name: z.string().max(100).optional(),
          /** Super administrators only: everyone's tasks. */
          all: z.enum(['true', 'false']).optional(),
        }),
      },
      async handler({ caller, query }) {
        let q = db.selectFrom('tasks');
        if (!(caller!.isSuperAdmin && query.all === 'true')) q = q.where('owner_id', '=', caller!.userId);
        if (query.state) q = q.where('state', '=', query.state);
        if (query.pluginId) q = q.where('plugin_id', '=', query.pluginId);
        if (query.name) q = q.where('name', '=', query.name);
        const [rows, count] = await Promise.all([
          q.selectAll().orderBy('created_at', 'desc').orderBy('id').limit(query.pageSize).offset(pageOffset(query)).execute(),
          q.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow(),
        ]);
        return pageOf(query, rows.map((r) => presentTask(r as never)), count.n);
      },
    },
    {
      method: 'GET',
      url: '/tasks/:id',
      access: 'signed-in',
      summary: 'Get a task',
      response: { data: task, errors: [404] },
      schema: { params: taskId },
      handler: ({ caller, params, headers }) => ownTask(caller, params.id, headers),
    },
    {
      method: 'POST',
      url: '/tasks/:id/cancel',
      access: 'signed-in',
      summary: 'Cancel a task',
      response: { data: task, errors: [404] },
      schema: { params: taskId },
      async handler({ caller, params, headers }) {
        const info = await ownTask(caller, params.id, headers);
        if (info.state !== 'queued' && info.state !== 'running') {
          throw new ApiError(Codes.BAD_REQUEST, say(headers, '只能取消排队中或运行中的任务', 'Only a queued or running task can be cancelled'));
        }
        return tasks.cancel(params.id);
      },
    },
  ];
}
