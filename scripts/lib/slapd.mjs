// A throwaway OpenLDAP server (Debian's slapd) for tests: a fresh mdb database in a temp directory,
// configured with a slapd.conf (no debconf, no cn=config), listening on loopback on a free port.
//   const ldap = await startSlapd();  await ldap.addUser('alice', 'Alice-pass-1', 'Alice Liddell');
//   ... ldap.url, ldap.baseDn, ldap.adminDn, ldap.adminPassword ...;  await ldap.stop();
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const SLAPD = '/usr/sbin/slapd';
const LDAPADD = '/usr/bin/ldapadd';
const SCHEMA_DIR = '/etc/ldap/schema';
const MODULE_DIR = '/usr/lib/ldap';
const APT_LINE = 'DEBIAN_FRONTEND=noninteractive apt-get install -y -o DPkg::Lock::Timeout=600 slapd ldap-utils';

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function canConnect(port) {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Runs ldapadd (from ldap-utils) with LDIF on stdin, bound as the administrator. */
function ldapAdd(url, adminDn, adminPassword, ldif) {
  const result = spawnSync(LDAPADD, ['-x', '-H', url, '-D', adminDn, '-w', adminPassword], { input: ldif, encoding: 'utf8' });
  if (result.error) throw result.error;
  if (result.status !== 0) throw new Error(`ldapadd failed (${result.status}): ${(result.stderr || result.stdout).trim()}`);
}

/**
 * Starts slapd with base DN dc=linguaport,dc=test, an ou=people, and an administrator
 * cn=admin,<base>. Users are inetOrgPerson entries uid=<uid>,ou=people,<base>.
 */
export async function startSlapd(options = {}) {
  if (!existsSync(SLAPD) || !existsSync(LDAPADD)) throw new Error(`OpenLDAP is not installed; install it as root with: ${APT_LINE}`);
  const baseDn = options.baseDn ?? 'dc=linguaport,dc=test';
  const adminDn = `cn=admin,${baseDn}`;
  const adminPassword = randomBytes(12).toString('base64url');
  const dir = mkdtempSync(join(tmpdir(), 'linguaport-slapd-'));
  const dbDir = join(dir, 'db');
  mkdirSync(dbDir);
  const port = await freePort();
  const url = `ldap://127.0.0.1:${port}`;
  const conf = join(dir, 'slapd.conf');
  writeFileSync(
    conf,
    [
      `include ${SCHEMA_DIR}/core.schema`,
      `include ${SCHEMA_DIR}/cosine.schema`,
      `include ${SCHEMA_DIR}/nis.schema`,
      `include ${SCHEMA_DIR}/inetorgperson.schema`,
      `pidfile ${join(dir, 'slapd.pid')}`,
      `modulepath ${MODULE_DIR}`,
      'moduleload back_mdb',
      'database mdb',
      'maxsize 104857600',
      `suffix "${baseDn}"`,
      `rootdn "${adminDn}"`,
      `rootpw ${adminPassword}`,
      `directory ${dbDir}`,
      // Users may bind (auth) with their password; everyone may read the rest but not passwords.
      'access to attrs=userPassword by self write by anonymous auth by * none',
      'access to * by * read',
      '',
    ].join('\n'),
  );
  // -d 0: stay in the foreground (so stop() can end exactly this process), no debug output.
  const child = spawn(SLAPD, ['-f', conf, '-h', `${url}/`, '-d', '0'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  let exited = null;
  child.once('exit', (code) => (exited = code ?? -1));
  // If the starting process ends without stop() (a killed test worker), do not leave slapd behind.
  const killOnExit = () => {
    child.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', killOnExit);
  child.once('exit', () => process.off('exit', killOnExit));
  const deadline = Date.now() + 15_000;
  while (!(await canConnect(port))) {
    if (exited !== null) {
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`slapd exited (${exited}) before listening: ${stderr.trim()}`);
    }
    if (Date.now() > deadline) {
      child.kill('SIGTERM');
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`slapd did not listen on ${url} within 15 s: ${stderr.trim()}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const dc = /^dc=([^,]+)/.exec(baseDn)?.[1] ?? 'test';
  ldapAdd(url, adminDn, adminPassword, `dn: ${baseDn}\nobjectClass: dcObject\nobjectClass: organization\ndc: ${dc}\no: Linguaport test\n\ndn: ou=people,${baseDn}\nobjectClass: organizationalUnit\nou: people\n`);

  return {
    url,
    baseDn,
    peopleDn: `ou=people,${baseDn}`,
    adminDn,
    adminPassword,
    /** What the server's environment needs to list this directory as a sign-in domain (see core README). */
    env: {
      LDAP_SYMBOL: 'testdir',
      LDAP_NAME: 'Test directory',
      LDAP_URL: url,
      LDAP_BASE_DN: `ou=people,${baseDn}`,
      LDAP_BIND_DN: adminDn,
      LDAP_BIND_PASSWORD: adminPassword,
      LDAP_USER_FILTER: '(uid={username})',
    },
    /** Adds inetOrgPerson uid=<uid>,ou=people,<base> with this password, common name and mail <uid>@linguaport.test. */
    async addUser(uid, password, cn = uid) {
      return addSlapdUser({ url, baseDn, adminDn, adminPassword }, uid, password, cn);
    },
    async stop() {
      if (exited === null) {
        const gone = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await Promise.race([gone, new Promise((r) => setTimeout(r, 5000))]);
        if (exited === null) child.kill('SIGKILL');
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Adds inetOrgPerson uid=<uid>,ou=people,<base> to a slapd started elsewhere (another process),
 * given the plain data of its startSlapd() result, e.g. JSON.parse(process.env.E2E_SLAPD).
 */
export async function addSlapdUser(described, uid, password, cn = uid) {
  const { url, baseDn, adminDn, adminPassword } = described;
  const sn = cn.split(' ').pop() || cn;
  ldapAdd(url, adminDn, adminPassword, `dn: uid=${uid},ou=people,${baseDn}\nobjectClass: inetOrgPerson\nuid: ${uid}\ncn: ${cn}\nsn: ${sn}\nmail: ${uid}@linguaport.test\nuserPassword: ${password}\n`);
  return `uid=${uid},ou=people,${baseDn}`;
}
