// Azure Blob Storage through @azure/storage-blob (optional: imported only for an as:// URL). The
// service is https://<account>.blob.core.windows.net, as core's as.h builds it, with the account
// of AZURE_STORAGE_ACCOUNT (or the credential file's account_str) over the URL's, as Triton does.
// TRITONC_AZURE_BLOB_ENDPOINT, tritonc's own, replaces the service URL (Azurite, sovereign clouds):
// Triton has no such setting. The library's requests are sent by boundedHttpClient below, so a
// listing page or an error is counted as it arrives and never parsed past MAX_PARSED_BODY_BYTES.
import type { AzureCredential } from './credentials.js';
import { ListingBound, StoreError, collectBody, loadClient, kindOf, networkCode, type ObjectStore, type StoredObject } from './store.js';
import type { RemoteLocation } from './url.js';
import { MAX_PARSED_BODY_BYTES, nodeBody, readText } from './bounded-body.js';

type BlobModule = typeof import('@azure/storage-blob');

/** The account Triton would use for `loc`: the credential's over the URL's (as.h). */
export function azureAccount(loc: RemoteLocation, cred: AzureCredential): string {
  return cred.account ?? loc.account ?? '';
}

export async function azureStore(loc: RemoteLocation, cred: AzureCredential, env: Readonly<Record<string, string | undefined>>): Promise<ObjectStore> {
  const blob = loadClient<BlobModule>('@azure/storage-blob', 'as');
  const account = azureAccount(loc, cred);
  const service = env.TRITONC_AZURE_BLOB_ENDPOINT?.replace(/\/+$/, '') ?? `https://${account}.blob.core.windows.net`;
  const options = {
    retryOptions: { maxTries: 1 },
    httpClient: boundedHttpClient as unknown as import('@azure/storage-blob').StoragePipelineOptions['httpClient'],
  };
  let credential: import('@azure/storage-blob').StorageSharedKeyCredential | import('@azure/storage-blob').AnonymousCredential | object;
  const authType = cred.authType ?? (cred.key ? 'key' : undefined);
  if (authType === 'key' && cred.key) credential = new blob.StorageSharedKeyCredential(account, cred.key);
  else if (authType === 'managed_identity' || authType === 'default') {
    const identity = loadClient<{ ManagedIdentityCredential: new (o?: unknown) => object; DefaultAzureCredential: new () => object }>('@azure/identity', 'as');
    credential =
      authType === 'default'
        ? new identity.DefaultAzureCredential()
        : new identity.ManagedIdentityCredential(cred.clientId ? { clientId: cred.clientId } : undefined);
  } else credential = new blob.AnonymousCredential();
  const client = new blob.BlobServiceClient(service, credential as import('@azure/storage-blob').StorageSharedKeyCredential, options).getContainerClient(
    loc.bucket,
  );
  const call = async <T>(f: () => Promise<T>): Promise<T> => {
    try {
      return await f();
    } catch (e) {
      throw azureError(e);
    }
  };
  const body = (r: { readableStreamBody?: NodeJS.ReadableStream }, cap: number): Promise<Uint8Array> =>
    collectBody(r.readableStreamBody as AsyncIterable<Uint8Array> | undefined, cap);
  return {
    list: (prefix, abortSignal) =>
      call(async () => {
        const out: StoredObject[] = [];
        const bound = new ListingBound();
        for await (const page of client.listBlobsFlat({ prefix, abortSignal }).byPage({ maxPageSize: 5000 })) {
          bound.page(page.segment.blobItems.length);
          for (const b of page.segment.blobItems) out.push({ key: b.name, size: b.properties.contentLength ?? 0 });
        }
        return out;
      }),
    read: (key, start, length, abortSignal) => call(async () => body(await client.getBlobClient(key).download(start, length, { abortSignal }), length)),
    get: (key, maxBytes, abortSignal) => call(async () => body(await client.getBlobClient(key).download(0, undefined, { abortSignal }), maxBytes)),
  };
}

/** What the library hands its HTTP client (core-http-compat's WebResourceLike), as far as it is read here. */
interface WebRequest {
  url: string;
  method: string;
  headers: { toJson(o: { preserveCase: boolean }): Record<string, string> };
  body?: unknown;
  abortSignal?: { aborted: boolean; addEventListener(type: 'abort', f: () => void): void; removeEventListener(type: 'abort', f: () => void): void };
  streamResponseStatusCodes?: Set<number>;
}

/**
 * The library's HTTP client (its `httpClient` option), sending each request with fetch: a body the
 * library would read whole and parse (a listing page, an error) is read here within
 * MAX_PARSED_BODY_BYTES, the request aborted past it; a body it streams (a blob's bytes) goes on as a
 * stream, which collectBody stops at what was asked for.
 */
const boundedHttpClient = {
  async sendRequest(request: WebRequest) {
    const controller = new AbortController();
    const abort = (): void => controller.abort();
    if (request.abortSignal?.aborted) abort();
    // Left on: a streamed body is read after this returns, and the request's timeout must still end it.
    request.abortSignal?.addEventListener('abort', abort);
    const body = typeof request.body === 'string' || request.body instanceof Uint8Array ? request.body : undefined;
    const response = await fetch(request.url, {
      method: request.method,
      headers: request.headers.toJson({ preserveCase: true }),
      body,
      signal: controller.signal,
      redirect: 'manual',
    });
    const headers = Object.fromEntries(response.headers);
    const codes = request.streamResponseStatusCodes;
    const streamed = codes?.has(Number.POSITIVE_INFINITY) || codes?.has(response.status);
    return {
      request,
      status: response.status,
      headers: { toJson: () => headers, get: (name: string) => response.headers.get(name) ?? undefined },
      ...(streamed ? { readableStreamBody: nodeBody(response) } : { bodyAsText: await readText(response, MAX_PARSED_BODY_BYTES, request.url) }),
    };
  },
};

function azureError(e: unknown): StoreError {
  if (e instanceof StoreError) return e;
  const x = e as { statusCode?: number; code?: string; message?: string; details?: { errorCode?: string } };
  const status = x.statusCode;
  const code = x.details?.errorCode ?? x.code ?? '';
  const detail = `${code ? `${code}: ` : ''}${(x.message ?? String(e)).split('\n')[0]}${status ? ` (HTTP ${status})` : ''}`;
  if (code === 'ContainerNotFound') return new StoreError('no-bucket', detail, status);
  if (code === 'BlobNotFound' || status === 404) return new StoreError('no-key', detail, status);
  if (code === 'ServerBusy' || code === 'OperationTimedOut') return new StoreError('throttled', detail, status);
  return new StoreError(kindOf(status, networkCode(e)), detail, status);
}
