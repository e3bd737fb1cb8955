import type { HttpClient } from '../../http/client.js';

/** The public calls of the sign-in page (spec 01 7.1 and 7.3), each tolerant of a server that lacks it. */

export interface DomainSymbol {
  symbol: string;
  name: string;
}

/** OPTIONS /ldap/getAllSymbols: strings or {symbol, name|domainName|label} objects. */
export function toSymbols(data: unknown): DomainSymbol[] {
  if (!Array.isArray(data)) return [];
  return data
    .map((d): DomainSymbol | null => {
      if (typeof d === 'string') return { symbol: d, name: d };
      if (d && typeof d === 'object') {
        const o = d as Record<string, unknown>;
        const symbol = o.symbol ?? o.value ?? o.code;
        if (typeof symbol !== 'string' || !symbol) return null;
        const name = o.name ?? o.domainName ?? o.label ?? symbol;
        return { symbol, name: String(name) };
      }
      return null;
    })
    .filter((d): d is DomainSymbol => d !== null);
}

export interface LoginFlags {
  guest: boolean;
  slider: boolean;
  register: boolean;
  /** An identity provider is configured: the single sign-on button is offered. */
  sso: boolean;
  symbols: DomainSymbol[];
}

const flag = (p: Promise<unknown>) => p.then((v) => v === true || v === 1 || v === '1' || v === 'true', () => false);

export async function loadLoginFlags(http: HttpClient): Promise<LoginFlags> {
  const [guest, slider, register, sso, symbols] = await Promise.all([
    flag(http.options('/systemConfig/getGuestUserFlag', { silent: true })),
    flag(http.options('/systemConfig/getLandingSliderFlag', { silent: true })),
    flag(http.get('/systemConfig/isAllowRegister', { silent: true })),
    flag(http.get('/sso/client/isEnabled', { silent: true })),
    http.options('/ldap/getAllSymbols', { silent: true }).then(toSymbols, () => []),
  ]);
  return { guest, slider, register, sso, symbols };
}

/** GET /sso/client/getSSOLoginPage: the provider's address and the ticket that later collects the session ({url, ticket}). */
export function toSsoPage(data: unknown): { url: string; state: string | null } | null {
  if (typeof data === 'string' && data) return { url: data, state: null };
  if (data && typeof data === 'object') {
    const o = data as Record<string, unknown>;
    const url = o.url ?? o.loginPage ?? o.loginUrl ?? o.authorizationUrl;
    if (typeof url === 'string' && url) {
      const ticket = o.ticket ?? o.state;
      return { url, state: typeof ticket === 'string' ? ticket : null };
    }
  }
  return null;
}

export const SSO_STATE_KEY = 'lp_ssoState';
