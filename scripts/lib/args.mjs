import { BuildError } from './errors.mjs';

/**
 * `build.mjs [--out <dir>] [--registry <file>] [--plugins-only] [--mode <mode>] [--watch [<id>...]]`.
 * Environment defaults: DIST_DIR, REGISTRY_FILE, NODE_ENV.
 */
export function parseBuildArgs(argv, env = {}) {
  const options = {
    out: env.DIST_DIR || 'dist',
    registry: env.REGISTRY_FILE || 'registry.json',
    pluginsOnly: false,
    mode: env.NODE_ENV || 'production',
    watch: null,
    // The host entry; overridable so the build can be tried before the console exists.
    hostEntry: env.HOST_ENTRY || 'core/console/src/main.tsx',
  };
  const valueOf = (i, flag) => {
    const v = argv[i + 1];
    if (v === undefined || v.startsWith('--')) throw new BuildError(`${flag} needs a value`);
    return v;
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--out') options.out = valueOf(i++, arg);
    else if (arg === '--registry') options.registry = valueOf(i++, arg);
    else if (arg === '--mode') options.mode = valueOf(i++, arg);
    else if (arg === '--host-entry') options.hostEntry = valueOf(i++, arg);
    else if (arg === '--plugins-only') options.pluginsOnly = true;
    else if (arg === '--watch') {
      options.watch = [];
      while (argv[i + 1] !== undefined && !argv[i + 1].startsWith('--')) options.watch.push(argv[++i]);
    } else throw new BuildError(`unknown argument ${arg} (expected --out, --registry, --plugins-only, --mode, --host-entry, --watch)`);
  }
  if (!['production', 'development', 'test'].includes(options.mode)) {
    throw new BuildError(`mode must be production, development or test, not ${options.mode}`);
  }
  return options;
}
