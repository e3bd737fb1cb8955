import type { MessageRow } from '@linguaport/sdk/shared';
import type { Kernel } from '../container.js';

/** A message of the caller's own (the SDK's shape of `/messageRemind/*` answers). */
export type Message = MessageRow;

/** Server pushes (and local events) after which the lists and the unread count reload. */
export const MESSAGE_EVENTS = ['message.created', 'messages.changed', 'message.read', 'message.deleted'] as const;

/** The kernel page every signed-in user may open: their own messages, whatever their roles. */
export const MESSAGES_PATH = '/messages';

/** Marks these messages read (all of the caller's with `'all'`); the server tells the other tabs. */
export function markRead(http: Kernel['http'], ids: number[] | 'all'): Promise<unknown> {
  return http.put('/messageRemind/updateMessages', ids === 'all' ? { all: true } : { ids }, { silent: true });
}

/** A one-line preview of a message for the dropdown. */
export function preview(content: string, max = 60): string {
  const line = content.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
