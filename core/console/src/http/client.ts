import axios, { type AxiosInstance, type AxiosRequestConfig, type Method } from 'axios';
import type { ApiClient, ApiErrorInfo, RequestOptions } from '@linguaport/sdk/console';
import type { Envelope } from '../../../../plugin-sdk/src/shared/envelope.js';
import { CancelRegistry } from './cancel.js';
import { classifyResponse, type Toast } from './classify.js';

export const API_BASE = '/api';
export const REQUEST_TIMEOUT_MS = 300_000;

/** What a rejected call carries (the SDK's ApiErrorInfo) plus the envelope when there was one. */
export class ApiCallError extends Error implements ApiErrorInfo {
  override readonly name = 'ApiCallError';
  constructor(
    readonly code: number,
    readonly msg: string,
    readonly status: number,
    readonly envelope?: Envelope,
  ) {
    super(msg || `request failed with code ${code}`);
  }
}

/** Codes for failures that never reached an envelope. */
export const ClientCodes = { CANCELED: -1, NETWORK: -2, TIMEOUT: -3 } as const;

export interface HttpClientDeps {
  token(): string | null;
  toast(toast: Toast): void;
  /** Code 601: clear the session; reload the page when asked. */
  endSession(reload: boolean): void;
  pathname(): string;
  /** The interface language, sent as Accept-Language so server-made names (menus) match it. */
  locale?(): string;
  cancel?: CancelRegistry;
  baseURL?: string;
}

interface CallConfig extends RequestOptions {
  method: Method;
  url: string;
  data?: unknown;
}

/**
 * The one HTTP client of the console (spec 01 sections 7 and 8). `request()` gives the whole
 * envelope (the login page needs 4014); the ApiClient methods resolve with `data` and reject with
 * ApiCallError, also for the codes the catalogue returns to the caller (4014, 3027, 4015, 2067),
 * since a caller that only sees `data` could not tell them apart otherwise.
 */
export class HttpClient implements ApiClient {
  readonly axios: AxiosInstance;
  readonly cancel: CancelRegistry;

  constructor(private readonly deps: HttpClientDeps) {
    this.cancel = deps.cancel ?? new CancelRegistry();
    this.axios = axios.create({
      baseURL: deps.baseURL ?? API_BASE,
      timeout: REQUEST_TIMEOUT_MS,
      // Every status is classified by the catalogue, not by axios.
      validateStatus: () => true,
      headers: { 'X-Requested-With': 'XMLHttpRequest' },
    });
    this.axios.interceptors.request.use((config) => {
      const token = this.deps.token();
      if (token) config.headers.set('Jwt', token);
      const locale = this.deps.locale?.();
      if (locale) config.headers.set('Accept-Language', locale);
      // FormData must keep its multipart type; axios would turn it into JSON under a JSON type.
      if (!(typeof FormData !== 'undefined' && config.data instanceof FormData)) config.headers.set('Content-Type', 'application/json');
      return config;
    });
  }

  /** Send a call and settle it by the catalogue; resolves with the envelope (or raw body). */
  async request<T = unknown>(call: CallConfig): Promise<Envelope<T>> {
    const { signal, done } = this.cancel.register();
    const config: AxiosRequestConfig = {
      method: call.method,
      url: call.url,
      data: call.data,
      params: call.params,
      headers: call.headers,
      signal,
      responseType: call.responseType === 'blob' ? 'blob' : 'json',
      onUploadProgress: call.onUploadProgress
        ? (e) => call.onUploadProgress!(e.total ? e.loaded / e.total : 0)
        : undefined,
    };
    let status: number;
    let body: unknown;
    try {
      const res = await this.axios.request(config);
      status = res.status;
      body = res.data;
    } catch (error) {
      throw this.transportError(error, call.silent);
    } finally {
      done();
    }
    const outcome = classifyResponse({ status, body, pathname: this.deps.pathname(), silent: call.silent });
    if (outcome.toast) this.deps.toast(outcome.toast);
    if (outcome.endSession) this.deps.endSession(outcome.reload);
    switch (outcome.settle) {
      case 'data':
      case 'envelope':
        return body as Envelope<T>;
      case 'body':
        return { code: 200, msg: '', data: body as T };
      default:
        throw new ApiCallError(outcome.code, outcome.msg, status, isEnvelope(body) ? body : undefined);
    }
  }

  private transportError(error: unknown, silent?: boolean): ApiCallError {
    if (axios.isCancel(error)) return new ApiCallError(ClientCodes.CANCELED, 'canceled', 0);
    const timedOut = axios.isAxiosError(error) && (error.code === 'ECONNABORTED' || error.code === 'ETIMEDOUT');
    if (!silent) this.deps.toast({ intent: 'danger', key: timedOut ? 'http.timeout' : 'http.network' });
    return new ApiCallError(timedOut ? ClientCodes.TIMEOUT : ClientCodes.NETWORK, (error as Error).message, 0);
  }

  private async data<T>(call: CallConfig): Promise<T> {
    const env = await this.request<T>(call);
    if (env.code !== 200) throw new ApiCallError(env.code, env.msg, 200, env);
    return env.data;
  }

  get<T = unknown>(url: string, options: RequestOptions = {}): Promise<T> {
    return this.data<T>({ ...options, method: 'GET', url });
  }
  post<T = unknown>(url: string, body?: unknown, options: RequestOptions = {}): Promise<T> {
    return this.data<T>({ ...options, method: 'POST', url, data: body });
  }
  put<T = unknown>(url: string, body?: unknown, options: RequestOptions = {}): Promise<T> {
    return this.data<T>({ ...options, method: 'PUT', url, data: body });
  }
  delete<T = unknown>(url: string, options: RequestOptions = {}): Promise<T> {
    return this.data<T>({ ...options, method: 'DELETE', url });
  }
  options<T = unknown>(url: string, options: RequestOptions = {}): Promise<T> {
    return this.data<T>({ ...options, method: 'OPTIONS', url });
  }
}

function isEnvelope(body: unknown): body is Envelope {
  return typeof body === 'object' && body !== null && 'code' in body;
}
