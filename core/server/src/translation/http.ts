/** HTTP helpers of engine adapters; they live in the SDK so plugins' adapters use the same ones. */
export { engineFetch, mapLimit, parseJson, trimSlash, type EngineResponse } from '@linguaport/sdk/server';
