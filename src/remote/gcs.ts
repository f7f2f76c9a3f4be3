// Google Cloud Storage: the JSON API's object listing (objects.list) and media download with a
// Range header (objects.get, alt=media), sent by tritonc itself so that every body is counted as it
// arrives (bounded-body.ts), every request carries the abort signal of its timeout, and nothing is
// parsed past its bound; @google-cloud/storage (optional: loaded only for a gs:// URL against GCS
// itself) answers for the credential alone: its auth client's Authorization header. The credential is
// the file Triton would read (GOOGLE_APPLICATION_CREDENTIALS, or the credential file's entry); without
// one, the library's application default credentials. STORAGE_EMULATOR_HOST (the library's variable)
// points it at an emulator, which, as the library does, is sent no credential; Triton's own client has
// no such setting in core's gcs.h.
import type { GcsCredential } from './credentials.js';
import { MAX_PARSED_BODY_BYTES, nodeBody, printableUrl, readText } from './bounded-body.js';
import { ListingBound, StoreError, collectBody, loadClient, kindOf, networkCode, type ObjectStore, type StoredObject } from './store.js';
import type { RemoteLocation } from './url.js';
import { append } from '../util/arrays.js';

type GcsModule = typeof import('@google-cloud/storage');

/** The JSON API's endpoint (the library's default, storage.googleapis.com). */
const GCS_API = 'https://storage.googleapis.com';

export async function gcsStore(loc: RemoteLocation, cred: GcsCredential, env: Readonly<Record<string, string | undefined>>): Promise<ObjectStore> {
  const emulator = env.STORAGE_EMULATOR_HOST;
  // The library's own reading of the variable (storage.ts sanitizeEndpoint): https unless it says.
  const api = emulator ? (/^https?:\/\//.test(emulator) ? emulator : `https://${emulator}`).replace(/\/+$/, '') : GCS_API;
  let auth: (() => Promise<Record<string, string>>) | undefined;
  if (!emulator) {
    const { Storage } = loadClient<GcsModule>('@google-cloud/storage', 'gs');
    const storage = new Storage({ retryOptions: { autoRetry: false }, ...(cred.file ? { keyFilename: cred.file } : {}) });
    auth = async () => {
      const headers: unknown = await storage.authClient.getRequestHeaders();
      // A Headers (google-auth-library 10) or a plain record (9).
      return headers instanceof Headers ? Object.fromEntries(headers) : (headers as Record<string, string>);
    };
  }
  const objects = `${api}/storage/v1/b/${encodeURIComponent(loc.bucket)}/o`;
  /** A GET of `url`: the response when it is 2xx, else the API's error as a StoreError. */
  const get = async (url: string, signal: AbortSignal, headers: Record<string, string> = {}): Promise<Response> => {
    try {
      const response = await fetch(url, { signal, redirect: 'manual', headers: { ...(auth ? await auth() : {}), ...headers } });
      if (response.status >= 200 && response.status < 300) return response;
      throw apiError(response.status, await readText(response, MAX_PARSED_BODY_BYTES, url));
    } catch (e) {
      throw gcsError(e);
    }
  };
  return {
    list: async (prefix, signal) => {
      const out: StoredObject[] = [];
      const bound = new ListingBound();
      let pageToken: string | undefined;
      // Page by page, so a listing without end is stopped by its bound.
      do {
        const url = `${objects}?${new URLSearchParams({ prefix, maxResults: '1000', ...(pageToken ? { pageToken } : {}) }).toString()}`;
        const page = listPage(await readText(await get(url, signal), MAX_PARSED_BODY_BYTES, url), url);
        bound.page(page.items.length);
        append(out, page.items);
        pageToken = page.next;
      } while (pageToken);
      return out;
    },
    read: async (key, start, length, signal) =>
      collectBody(nodeBody(await get(`${objects}/${encodeURIComponent(key)}?alt=media`, signal, { range: `bytes=${start}-${start + length - 1}` })), length),
    get: async (key, maxBytes, signal) => collectBody(nodeBody(await get(`${objects}/${encodeURIComponent(key)}?alt=media`, signal)), maxBytes),
  };
}

/** An objects.list page ({"items":[{"name","size"}],"nextPageToken"}), or a StoreError for anything else. */
function listPage(text: string, url: string): { items: StoredObject[]; next?: string } {
  const broken = (why: string): StoreError => new StoreError('other', `the answer to GET ${printableUrl(url)} is not an objects.list page (${why})`);
  let page: unknown;
  try {
    page = JSON.parse(text);
  } catch {
    throw broken('not JSON');
  }
  if (typeof page !== 'object' || page === null) throw broken('not an object');
  const { items = [], nextPageToken } = page as { items?: unknown; nextPageToken?: unknown };
  if (!Array.isArray(items)) throw broken('its items are not a list');
  if (nextPageToken !== undefined && typeof nextPageToken !== 'string') throw broken('its nextPageToken is not a string');
  const out: StoredObject[] = [];
  for (const item of items as unknown[]) {
    const { name, size } = (item ?? {}) as { name?: unknown; size?: unknown };
    if (typeof name !== 'string') throw broken('an item without a name');
    out.push({ key: name, size: Number(size ?? 0) || 0 });
  }
  return { items: out, ...(nextPageToken ? { next: nextPageToken } : {}) };
}

/** The API's error body ({"error":{"code","message"}}) as the error gcsError reads. */
function apiError(status: number, text: string): Error & { code: number } {
  let message = `HTTP ${status}`;
  try {
    const m = (JSON.parse(text) as { error?: { message?: unknown } }).error?.message;
    if (typeof m === 'string') message = m.slice(0, 500);
  } catch {
    // Not the API's JSON: the status says it.
  }
  return Object.assign(new Error(message), { code: status });
}

function gcsError(e: unknown): StoreError {
  if (e instanceof StoreError) return e;
  const x = e as { code?: number | string; message?: string };
  const status = typeof x.code === 'number' ? x.code : undefined;
  const detail = `${x.message ?? String(e)}${status ? ` (HTTP ${status})` : ''}`;
  if (status === 404) return new StoreError(/bucket/i.test(x.message ?? '') ? 'no-bucket' : 'no-key', detail, status);
  if (/Could not load the default credentials/i.test(x.message ?? '')) return new StoreError('no-credentials', detail, status);
  if (/invalid_grant|unauthorized_client/i.test(x.message ?? '')) return new StoreError('denied', detail, status);
  return new StoreError(kindOf(status, networkCode(e)), detail, status);
}
