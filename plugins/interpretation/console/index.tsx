import { definePlugin } from '@linguaport/sdk/console';
import { SimultaneousInterpretation } from './Captions.js';
import { SimultaneousInterpretingConfiguration } from './Config.js';
import { SimultaneousInterpretationLog } from './Log.js';

export default definePlugin({ id: 'interpretation', views: { SimultaneousInterpretation, SimultaneousInterpretationLog, SimultaneousInterpretingConfiguration } });
