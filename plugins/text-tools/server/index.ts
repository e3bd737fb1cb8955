import { z } from 'zod';
import { defineServerPlugin } from '@linguaport/sdk/server';

/** Language detection (/language), sentence split (/clause), word segmentation (/participle). */
const USE = { permission: 'textTools:use' } as const;
// Tools answer interactively: 1 MB is far beyond a typed text and still splits in under a second.
const text = z.string().max(1_000_000, 'The text is longer than 1,000,000 characters');

// The answers, as the OpenAPI document states them (its test checks real answers against them).
const detected = z.object({
  language: z.string().describe('The engines\' platform code when one takes it (zh-CN), else ISO 639-1 (de); unknown when unsure'),
  confidence: z.number().min(0).max(1),
  translatable: z.boolean().describe('Whether an enabled, healthy engine translates from it'),
  targets: z.array(z.string()).describe('The codes it translates into'),
});
const sentences = z.object({ sentences: z.array(z.string()).describe('Joined, they give the text back') });
const words = z.object({ words: z.array(z.string()) });

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
      response: { data: detected },
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
      response: { data: sentences },
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
      response: { data: words },
      handler: ({ body }) => ({ words: ctx.engines.segment(body.text, body.language) }),
    });
  },
});
