#!/usr/bin/env node
// Rotates the server's secret (DATA_DIR/secret.key) after a suspected leak: `npm run rotate-secret`.
// Stop every server of the deployment first (on the embedded database a running server holds its lock
// and the command is refused). It makes a new key, seals every stored secret again with it (API keys,
// directory bind passwords, SSO client secrets, engine node credentials), ends every session and so
// voids every quick-access link. Servers sharing one PostgreSQL must all get the new secret.key.
import { loadConfig } from '../core/server/src/config.ts';
import { createDatabase } from '../core/server/src/db/database.ts';
import { rotateSecret } from '../core/server/src/auth/rotate-secret.ts';

const config = loadConfig();
let database;
try {
  database = await createDatabase(config);
} catch (err) {
  process.stderr.write(`rotate-secret: cannot open the database (${err instanceof Error ? err.message : err}); stop the server first\n`);
  process.exit(1);
}
try {
  const r = await rotateSecret(database.db, config.dataDir);
  console.log(
    `rotate-secret: ${r.resumed ? 'finished an interrupted rotation' : 'new key written'} to ${config.dataDir}/secret.key; ` +
      `${r.resealed} stored secrets sealed again${r.unreadable ? ` (${r.unreadable} were unreadable with the old key and left as they were)` : ''}; ` +
      `${r.sessionsEnded} sessions ended; quick-access links made before now no longer work.`,
  );
  if (config.databaseUrl) console.log('rotate-secret: copy the new secret.key to every server sharing this database before starting them.');
} catch (err) {
  process.stderr.write(`rotate-secret: ${err instanceof Error ? err.message : err}\n`);
  process.exitCode = 1;
} finally {
  await database.close();
}
