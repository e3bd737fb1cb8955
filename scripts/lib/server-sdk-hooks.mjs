// A resolve hook of the compiled server (dist/server/sdk-hooks.js, registered by main.js). An uploaded
// server part imports `@linguaport/sdk/server` (or /shared, /package, /resources, /interchange) as a package, whose files are
// TypeScript that plain Node cannot run; it gets the SDK compiled beside the kernel instead, the same
// modules the kernel and the built-in plugins use.
const SDK = /^@linguaport\/sdk\/(server|shared|package|resources|interchange)$/;

export async function resolve(specifier, context, nextResolve) {
  const m = SDK.exec(specifier);
  if (!m) return nextResolve(specifier, context);
  return { url: new URL(`./sdk/${m[1]}.js`, import.meta.url).href, shortCircuit: true };
}
