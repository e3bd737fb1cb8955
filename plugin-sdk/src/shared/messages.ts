/**
 * One of the caller's own messages (spec 02 section 3 Message) as the kernel's `/messageRemind/*`
 * calls answer it: the header bell, the `/messages` page, the news area and the home tile read it.
 */
export interface MessageRow {
  id: number;
  type: string;
  /** The type's name in the reader's language. */
  typeName: string;
  content: string;
  isRead: boolean;
  createTime: string;
}
