import { spawn, spawnSync } from 'node:child_process';
import { z } from 'zod';
import { ApiError, languageName, localizedTextSchema, say, taskSchema, type ServerPluginContext } from '@linguaport/sdk/server';

/**
 * Language packs: the Apertium pairs Debian packages (`apertium-eng-spa`, `apertium-fr-es`...), listed
 * with their languages by name, installed and removed by an administrator as a task with progress.
 * apt-get needs root: without it nothing is started and the answer gives the exact command instead.
 * After a change the local Apertium nodes restart, since APy reads its modes when it starts.
 *
 * `ctx.config.apt` (strings) adds apt options to every call, so a deployment (or a test) can point apt
 * at another source list: `["-o", "Dir::Etc::SourceList=/srv/apt/local.list", ...]`.
 */

const PACK_NAME = /^apertium-[a-z]{2,3}-[a-z]{2,3}$/;
/** Transitional packages only pull in their renamed successor: listing both would show each pair twice. */
const TRANSITIONAL = /^transitional (dummy )?package/i;

const languagePackSchema = z.object({
  name: z.string(),
  description: z.string(),
  /** The pair's two languages by ISO code as the package names them (`eng`, `spa`, `fr`), with English and Chinese names. */
  languages: z.array(z.object({ code: z.string(), name: localizedTextSchema })),
  installed: z.boolean(),
  version: z.string().nullable(),
});
export type LanguagePack = z.infer<typeof languagePackSchema>;

const packsInput = z.object({
  action: z.enum(['install', 'remove']),
  packages: z.array(z.string().regex(PACK_NAME)).min(1).max(60),
});
type PacksInput = z.infer<typeof packsInput>;

function run(cmd: string, args: string[]): { ok: boolean; stdout: string; stderr: string } {
  const res = spawnSync(cmd, args, { encoding: 'utf8', env: { ...process.env, LC_ALL: 'C.UTF-8' }, timeout: 60_000, maxBuffer: 16 * 1024 * 1024 });
  return { ok: res.status === 0, stdout: res.stdout ?? '', stderr: res.stderr ?? (res.error?.message ?? '') };
}

const displayName = (code: string, locale: string) => {
  try {
    const name = new Intl.DisplayNames([locale], { type: 'language' }).of(code);
    return name && name !== code ? name : languageName(code);
  } catch {
    return code;
  }
};

/** The pair packages apt knows, with what dpkg says is installed. */
export function listLanguagePacks(aptOptions: readonly string[]): LanguagePack[] {
  const search = run('apt-cache', [...aptOptions, 'search', '--names-only', '^apertium-[a-z]+-[a-z]+$']);
  if (!search.ok) throw new ApiError(503, { 'zh-CN': `apt-cache 无法列出语言包：${search.stderr.trim() || '无应答'}`, 'en-US': `apt-cache could not list the language packs: ${search.stderr.trim() || 'no answer'}` });
  const known = new Map<string, string>();
  for (const line of search.stdout.split('\n')) {
    const m = /^(\S+) - (.*)$/.exec(line.trim());
    if (m && PACK_NAME.test(m[1]) && !TRANSITIONAL.test(m[2])) known.set(m[1], m[2]);
  }
  const status = new Map<string, string>();
  if (known.size) {
    // Unknown names make dpkg-query exit 1 while still printing the known ones.
    const q = run('dpkg-query', ['-W', '-f=${Package}\t${Status}\t${Version}\n', ...known.keys()]);
    for (const line of q.stdout.split('\n')) {
      const [name, state, version] = line.split('\t');
      if (name && state?.endsWith(' installed')) status.set(name, version ?? '');
    }
  }
  return [...known]
    .map(([name, description]) => ({
      name,
      description,
      languages: name
        .split('-')
        .slice(1)
        .map((code) => ({ code, name: { 'zh-CN': displayName(code, 'zh-CN'), 'en-US': displayName(code, 'en-US') } })),
      installed: status.has(name),
      version: status.get(name) || null,
    }))
    .sort((a, b) => a.languages[0].name['en-US'].localeCompare(b.languages[0].name['en-US']) || a.name.localeCompare(b.name));
}

/** How many Apertium modes (translation directions) these installed packages hold. */
function modesOf(packages: string[]): number {
  const files = run('dpkg-query', ['-L', ...packages]).stdout;
  return files.split('\n').filter((f) => /\/modes\/[^/]+\.mode$/.test(f)).length;
}

/** `apt-get install|remove` with apt's machine-readable status on fd 3, reported as a percentage. */
function aptGet(aptOptions: readonly string[], input: PacksInput, signal: AbortSignal, onPercent: (percent: number, message: string) => void): Promise<void> {
  const args = [...aptOptions, '-y', '-o', 'DPkg::Lock::Timeout=600', '-o', 'APT::Status-Fd=3', '--no-install-recommends', input.action, ...input.packages];
  return new Promise((resolve, reject) => {
    const child = spawn('apt-get', args, { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive', LC_ALL: 'C.UTF-8' }, stdio: ['ignore', 'pipe', 'pipe', 'pipe'], signal });
    let stderr = '';
    let pending = '';
    child.stderr!.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
    child.stdout!.resume();
    (child.stdio[3] as NodeJS.ReadableStream).on('data', (d: Buffer) => {
      pending += d.toString();
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        // dlstatus:<pkg>:<percent>:<text> while downloading, pmstatus:<pkg>:<percent>:<text> while installing.
        const m = /^(dlstatus|pmstatus):[^:]*:([\d.]+):(.*)$/.exec(line);
        if (m) onPercent(m[1] === 'dlstatus' ? Number(m[2]) / 2 : 50 + Number(m[2]) / 2, m[3]);
      }
    });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`apt-get ${input.action} failed (exit ${code}): ${stderr.trim().split('\n').slice(-3).join(' ')}`))));
  });
}

export async function registerLanguagePacks(ctx: ServerPluginContext, access: { view: { permission: string }; manage: { permission: string } }): Promise<void> {
  const aptOptions = Array.isArray(ctx.config.apt) ? (ctx.config.apt as unknown[]).map(String) : [];
  const isRoot = () => process.getuid?.() === 0;

  const task = await ctx.tasks.define<PacksInput, { action: string; packages: string[]; restartedNodes: number }>({
    name: 'language-packs',
    input: packsInput,
    // apt-get is idempotent: a run cut short (kill -9) simply runs again.
    retryLimit: 1,
    async run({ input, signal, progress }) {
      // The modes a removal takes away are listed while the packages are still there.
      const removedModes = input.action === 'remove' ? modesOf(input.packages) : 0;
      let last = 0;
      await aptGet(aptOptions, input, signal, (percent, message) => {
        const done = Math.min(99, Math.floor(percent));
        if (done > last) {
          last = done;
          void progress({ done, total: 100, message });
        }
      });
      // APy reads its modes at start: the local nodes restart to serve the new pairs (or drop the removed
      // ones), and only then: a package without modes changes nothing they serve.
      const changedModes = input.action === 'install' ? modesOf(input.packages) : removedModes;
      let restartedNodes = 0;
      for (const node of changedModes ? ctx.engines.nodes.local() : []) {
        await ctx.engines.nodes.stop(node.id);
        await ctx.engines.nodes.start(node.id);
        restartedNodes++;
      }
      await progress({ done: 100, total: 100 });
      return { action: input.action, packages: input.packages, restartedNodes };
    },
  });
  let current: string | null = null;
  const packsTask = taskSchema(z.object({ action: z.enum(['install', 'remove']), packages: z.array(z.string()), restartedNodes: z.number().int() }));

  ctx.route({
    method: 'GET',
    url: '/translServiceNode/languagePacks',
    access: access.view,
    summary: 'List the language packs (Apertium pairs) and which are installed',
    response: { data: z.object({ packs: z.array(languagePackSchema), canManage: z.boolean(), reason: z.string().nullable(), task: z.string().nullable() }), errors: [503] },
    handler: ({ headers }) => {
      const packs = listLanguagePacks(aptOptions);
      return {
        packs,
        canManage: isRoot(),
        // Without root the platform cannot run apt-get: the administrator runs it.
        reason: isRoot() ? null : say(headers, '服务器不是以 root 身份运行，无法安装语言包；请在服务器上运行下列命令', 'The server does not run as root, so it cannot install language packs; run this command on the server'),
        task: current,
      };
    },
  });

  ctx.route<unknown, PacksInput>({
    method: 'POST',
    url: '/translServiceNode/languagePacks',
    access: access.manage,
    summary: 'Install or remove language packs (a task with progress)',
    schema: { body: packsInput },
    response: { data: packsTask, errors: [409, 503] },
    async handler({ body, caller, headers }) {
      const packs = new Map(listLanguagePacks(aptOptions).map((p) => [p.name, p]));
      const unknown = body.packages.filter((p) => !packs.has(p));
      if (unknown.length) throw new ApiError(400, say(headers, `没有这些语言包：${unknown.join(', ')}`, `No such language pack: ${unknown.join(', ')}`));
      const wanted = [...new Set(body.packages)].filter((p) => packs.get(p)!.installed === (body.action === 'remove'));
      if (!wanted.length) throw new ApiError(400, say(headers, body.action === 'install' ? '所选语言包均已安装' : '所选语言包均未安装', body.action === 'install' ? 'The chosen language packs are all installed already' : 'None of the chosen language packs is installed'));
      if (!isRoot()) {
        const command = `sudo apt-get ${body.action} -y ${wanted.join(' ')}`;
        throw new ApiError(400, say(headers, `服务器不是以 root 身份运行，无法${body.action === 'install' ? '安装' : '删除'}语言包。请在服务器上运行：${command}`, `The server does not run as root and cannot ${body.action} language packs. Run on the server: ${command}`), { command });
      }
      if (current) {
        const running = await task.get(current);
        if (running && (running.state === 'queued' || running.state === 'running')) {
          throw new ApiError(409, say(headers, '另一个语言包任务正在进行，请等它结束', 'Another language-pack task is under way; wait for it to end'), { task: current });
        }
      }
      const started = await task.start({ action: body.action, packages: wanted }, { ownerId: caller!.userId, title: `${body.action} ${wanted.join(', ')}` });
      current = started.id;
      return started;
    },
  });
}
