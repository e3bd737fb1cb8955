import { z } from 'zod';

// What the console and the server agree on: the fields a request carries and the rows an answer
// holds. The server checks requests with these schemas and every answer against the response
// schema it declares; the console types its calls from the same ones.

/** An item's fields as the server checks them (messages are locale keys, shown in the caller's language). */
export const itemFields = z.object({
  name: z.string().trim().min(1, 'validation.required').max(100),
});
export type ItemFields = z.infer<typeof itemFields>;

/** One item as the API answers it. */
export const itemSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  createdAt: z.string(),
});
export type Item = z.infer<typeof itemSchema>;
