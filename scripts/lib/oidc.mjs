// A real OpenID Connect provider (the `oidc-provider` package) on loopback for tests: one
// confidential client (PKCE required), an in-memory user store, and plain HTML login and consent
// forms that Playwright or fetch with a cookie jar can complete.
//   const idp = await startOidc({ redirectUri });  await idp.addUser('sub-1', 'carol', 'Carol-pass-1');
//   ... idp.issuer, idp.clientId, idp.clientSecret ...;  await idp.stop();
// Without redirectUri any http://127.0.0.1:<port>/api/sso/login or http://localhost:<port>/... is accepted
// (the e2e server's port is not known when the provider starts).
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { exportJWK, generateKeyPair } from 'jose';
import Provider from 'oidc-provider';

const esc = (s) => String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const page = (title, body) =>
  `<!doctype html><html><head><meta charset="utf-8"><title>${esc(title)}</title></head><body><h1>${esc(title)}</h1>${body}</body></html>`;

function readForm(req) {
  return new Promise((resolve, reject) => {
    let data = '';
    req.setEncoding('utf8');
    req.on('data', (d) => (data += d));
    req.on('end', () => resolve(Object.fromEntries(new URLSearchParams(data))));
    req.on('error', reject);
  });
}

const LOOPBACK_REDIRECT = /^http:\/\/(127\.0\.0\.1|localhost):\d+\/api\/sso\/login$/;

export async function startOidc(options = {}) {
  const users = new Map(); // sub -> {sub, username, password, name, email}
  const clientId = options.clientId ?? 'linguaport';
  const clientSecret = randomBytes(24).toString('base64url');
  // Lets other processes (Playwright specs) add users: POST /test/users with this bearer token.
  const adminToken = randomBytes(24).toString('base64url');
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = { ...(await exportJWK(privateKey)), alg: 'RS256', use: 'sig', kid: 'k1' };

  const http = createServer();
  await new Promise((resolve) => http.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${http.address().port}`;

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [options.redirectUri ?? 'http://127.0.0.1/api/sso/login'],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    jwks: { keys: [jwk] },
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    pkce: { required: () => true },
    // Explicit lifetimes (seconds) for a test provider; also keeps its start-up notices quiet.
    ttl: { AccessToken: 600, AuthorizationCode: 60, IdToken: 600, Interaction: 600, Session: 3600, Grant: 3600 },
    claims: { openid: ['sub'], profile: ['name', 'preferred_username'], email: ['email'] },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    async findAccount(_ctx, sub) {
      const user = users.get(sub);
      if (!user) return undefined;
      return { accountId: sub, claims: async () => ({ sub, preferred_username: user.username, name: user.name, email: user.email }) };
    },
  });
  if (!options.redirectUri) {
    const allowed = provider.Client.prototype.redirectUriAllowed;
    provider.Client.prototype.redirectUriAllowed = function (uri) {
      return LOOPBACK_REDIRECT.test(uri) || allowed.call(this, uri);
    };
  }
  const callback = provider.callback();

  async function interaction(req, res, uid, action) {
    const details = await provider.interactionDetails(req, res);
    if (details.uid !== uid) throw new Error('interaction mismatch');
    if (req.method === 'GET') {
      res.setHeader('content-type', 'text/html; charset=utf-8');
      if (details.prompt.name === 'login') {
        const error = details.lastSubmission?.error;
        res.end(
          page(
            'Sign in',
            `${error ? `<p role="alert">${esc(error)}</p>` : ''}<form method="post" action="/interaction/${esc(uid)}/login">` +
              `<label>Username <input name="username" autocomplete="username" autofocus></label>` +
              `<label>Password <input name="password" type="password" autocomplete="current-password"></label>` +
              `<button type="submit">Sign in</button></form>`,
          ),
        );
      } else {
        res.end(page('Authorize', `<p>${esc(details.params.client_id)} asks for: ${esc(details.params.scope)}</p><form method="post" action="/interaction/${esc(uid)}/confirm"><button type="submit">Continue</button></form>`));
      }
      return;
    }
    const form = await readForm(req);
    if (action === 'login') {
      const user = [...users.values()].find((u) => u.username === form.username && u.password === form.password);
      if (!user) {
        res.setHeader('content-type', 'text/html; charset=utf-8');
        res.statusCode = 200;
        res.end(page('Sign in', `<p role="alert">Invalid username or password</p><form method="post" action="/interaction/${esc(uid)}/login"><label>Username <input name="username"></label><label>Password <input name="password" type="password"></label><button type="submit">Sign in</button></form>`));
        return;
      }
      await provider.interactionFinished(req, res, { login: { accountId: user.sub } }, { mergeWithLastSubmission: false });
      return;
    }
    // Consent: grant exactly what the client asked for.
    const { prompt, params, session, grantId } = details;
    const grant = grantId ? await provider.Grant.find(grantId) : new provider.Grant({ accountId: session.accountId, clientId: params.client_id });
    if (prompt.details.missingOIDCScope) grant.addOIDCScope(prompt.details.missingOIDCScope.join(' '));
    if (prompt.details.missingOIDCClaims) grant.addOIDCClaims(prompt.details.missingOIDCClaims);
    if (prompt.details.missingResourceScopes) {
      for (const [indicator, scopes] of Object.entries(prompt.details.missingResourceScopes)) grant.addResourceScope(indicator, scopes.join(' '));
    }
    await provider.interactionFinished(req, res, { consent: { grantId: await grant.save() } }, { mergeWithLastSubmission: true });
  }

  http.on('request', (req, res) => {
    if (req.url === '/test/users' && req.method === 'POST') {
      if (req.headers.authorization !== `Bearer ${adminToken}`) {
        res.statusCode = 401;
        return res.end();
      }
      let data = '';
      req.on('data', (d) => (data += d));
      req.on('end', () => {
        try {
          const u = JSON.parse(data);
          users.set(u.sub, { sub: u.sub, username: u.username, password: u.password, name: u.name ?? u.username, email: `${u.username}@linguaport.test` });
          res.statusCode = 204;
        } catch {
          res.statusCode = 400;
        }
        res.end();
      });
      return;
    }
    const m = /^\/interaction\/([^/?]+)(?:\/(login|confirm))?(?:\?.*)?$/.exec(req.url ?? '');
    if (!m) return callback(req, res);
    interaction(req, res, m[1], m[2]).catch((err) => {
      res.statusCode = 400;
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end(page('Error', `<p>${esc(err.message)}</p>`));
    });
  });

  return {
    issuer,
    url: issuer,
    clientId,
    clientSecret,
    adminToken,
    /** What the server's environment needs to use this provider for single sign-on (see core README). */
    env: { SSO_ISSUER: issuer, SSO_CLIENT_ID: clientId, SSO_CLIENT_SECRET: clientSecret, SSO_NAME: 'Test identity provider', ...(options.redirectUri ? { SSO_REDIRECT_URI: options.redirectUri } : {}) },
    async addUser(sub, username, password, name = username) {
      users.set(sub, { sub, username, password, name, email: `${username}@linguaport.test` });
    },
    async stop() {
      http.closeAllConnections?.();
      await new Promise((resolve) => http.close(() => resolve()));
    },
  };
}

/**
 * Adds a user to a provider started elsewhere (another process), given the plain data of its
 * startOidc() result ({issuer, adminToken}), e.g. JSON.parse(process.env.E2E_OIDC).
 */
export async function addOidcUser(described, sub, username, password, name = username) {
  const res = await fetch(`${described.issuer}/test/users`, {
    method: 'POST',
    headers: { authorization: `Bearer ${described.adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ sub, username, password, name }),
  });
  if (res.status !== 204) throw new Error(`adding ${username} to the identity provider answered ${res.status}`);
}
