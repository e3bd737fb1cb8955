// Figure: what a signed-in call costs the kernel beyond the route itself. The same light route
// (`GET /api/translServiceNode/kinds`) through app.inject with a session token, for the super
// administrator (every active permission) and for a user holding one role, beside the public
// `GET /api/user/getOnePublicKey` (no session to resolve) as the baseline; p50/p90 latency and CPU
// time per call, 500 calls each after 100 to warm up.
import { ADMIN_PASSWORD, createUserWithRole, startTestKernel } from '@linguaport/sdk/testing';

const CALLS = 500;
const kernel = await startTestKernel({ plugins: ['service'], builtinEngine: false });
try {
  const admin = await kernel.login('admin', ADMIN_PASSWORD);
  await createUserWithRole(kernel, 'reader', 'Reader-Passw0rd', 'node-reader', ['service:view']);
  const reader = await kernel.login('reader', 'Reader-Passw0rd');

  async function measure(label: string, url: string, token: string | null) {
    const call = () => kernel.app.inject({ method: 'GET', url, headers: token ? { jwt: token } : {} });
    const first = await call();
    if (first.statusCode !== 200 || first.json().code !== 200) throw new Error(`${label}: ${first.body.slice(0, 200)}`);
    for (let i = 0; i < 100; i++) await call();
    const times: number[] = [];
    const cpu = process.cpuUsage();
    for (let i = 0; i < CALLS; i++) {
      const t = performance.now();
      await call();
      times.push(performance.now() - t);
    }
    const used = process.cpuUsage(cpu);
    times.sort((a, b) => a - b);
    const p = (q: number) => times[Math.floor(q * (times.length - 1))]!.toFixed(2);
    console.log(`${label.padEnd(44)} p50 ${p(0.5)} ms  p90 ${p(0.9)} ms  CPU ${((used.user + used.system) / 1000 / CALLS).toFixed(2)} ms a call`);
  }

  await measure('public call (baseline, no session)', '/api/user/getOnePublicKey', null);
  await measure('signed-in call, super administrator', '/api/translServiceNode/kinds', admin);
  await measure('signed-in call, user with one role', '/api/translServiceNode/kinds', reader);
} finally {
  await kernel.shutdown();
}
process.exit(0);
