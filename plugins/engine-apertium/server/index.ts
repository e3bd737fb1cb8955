import { defineServerPlugin, morphologyService } from '@linguaport/sdk/server';
import { apertiumDefinition } from './definition.js';
import { ApertiumMorphology } from './morphology.js';

/**
 * Registers the local Apertium kind; the kernel starts, watches and routes to its nodes, and drops it when this plugin stops.
 * Offers the installed pairs' analysers and generators as `morphology` (terms put into a translation agree through it).
 */
export default defineServerPlugin({
  setup(ctx) {
    ctx.engines.registerAdapter(apertiumDefinition());
    const morphology = new ApertiumMorphology();
    ctx.services.provide(morphologyService, morphology);
    ctx.onClose(() => morphology.stop());
  },
});
