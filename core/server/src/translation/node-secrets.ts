import type { AnyEngineAdapterDefinition } from '@linguaport/sdk/server';
import { loadSecret } from '../auth/secret.js';

/**
 * Node secrets at rest (passwords, API keys in a node's config), sealed with the server's own
 * secret (DATA_DIR/secret.key, shared with sign-in). The adapter definition names which config
 * fields are secrets; only the node start opens them.
 */
export interface NodeSecrets {
  /** Seals a secret for storing in a node's config. */
  seal(plain: string): string;
  /** The node's config with the fields its definition names as secrets opened. */
  open(config: Record<string, unknown> | null, definition: AnyEngineAdapterDefinition | undefined): Record<string, unknown>;
}

export function createNodeSecrets(dataDir: string): NodeSecrets {
  const secret = loadSecret(dataDir);
  const unseal = (sealed: string) => {
    const plain = secret.decrypt(sealed);
    if (plain === null) throw new Error('a sealed node secret cannot be read with this server\'s secret.key');
    return plain;
  };
  return {
    seal: (plain) => secret.encrypt(plain),
    open(stored, definition) {
      const config = { ...(stored ?? {}) };
      for (const field of definition?.secrets ?? []) {
        if (typeof config[field] === 'string' && config[field] !== '') config[field] = unseal(config[field] as string);
      }
      return config;
    },
  };
}
