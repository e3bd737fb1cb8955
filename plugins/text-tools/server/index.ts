import { z } from 'zod';
import { defineServerPlugin } from '@linguaport/sdk/server';

/** Language detection (/language), sentence split (/clause), word segmentation (/participle). */
const USE = { permission: 'textTools:use' } as const;
// Tools answer interactively: 1 MB is far beyond a typed text and still splits in under a second.
const text = z.string().max(1_000_000, 'The text is longer than 1,000,000 characters');

export default defineServerPlugin({
  setup(ctx) {
    ctx.route({
      method: 'POST',
      url: '/language/detect',
      apiKey: 'textTools',
      // Using a service changes no administered data: kept out of the operation log.
      log: false,
      access: USE,
      summary: 'Detect the language of a text',
      schema: { body: z.object({ text }) },
      handler: ({ body }) => ctx.engines.detect(body.text),
    });
    ctx.route({
      method: 'POST',
      url: '/clause/split',
      apiKey: 'textTools',
      // Using a service changes no administered data: kept out of the operation log.
      log: false,
      access: USE,
      summary: 'Split a text into sentences',
      schema: { body: z.object({ text, language: z.string().min(2).max(20).optional() }) },
      handler: ({ body }) => ({ sentences: ctx.engines.split(body.text, body.language) }),
    });
    ctx.route({
      method: 'POST',
      url: '/participle/segment',
      apiKey: 'textTools',
      // Using a service changes no administered data: kept out of the operation log.
      log: false,
      access: USE,
      summary: 'Segment a text into words',
      schema: { body: z.object({ text, language: z.string().min(2).max(20).optional() }) },
      handler: ({ body }) => ({ words: ctx.engines.segment(body.text, body.language) }),
    });
  },
});
