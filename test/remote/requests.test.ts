// The request runner every store call goes through: bounded concurrency, retries with backoff on
// throttling, 5xx and timeouts, none on refusals.
import { describe, expect, it } from 'vitest';
import { Requests } from '../../src/remote/requests.js';
import { StoreError, loadClient, MissingClientError } from '../../src/remote/store.js';

const noSleep = { sleep: async () => undefined };

describe('Requests', () => {
  it('retries a throttled request with growing waits, then answers', async () => {
    const waits: number[] = [];
    const r = new Requests({ retries: 4, backoffMs: 100, sleep: async (ms) => void waits.push(ms) });
    let calls = 0;
    const got = await r.run(
      async () => {
        if (++calls < 3) throw new StoreError('throttled', 'SlowDown', 503);
        return new Uint8Array(7);
      },
      (b) => b.byteLength,
    );
    expect(got.byteLength).toBe(7);
    expect(calls).toBe(3);
    expect(r.stats).toEqual({ requests: 3, bytes: 7, retries: 2 });
    // Full jitter: each wait is below its doubled ceiling.
    expect(waits[0]).toBeLessThan(100);
    expect(waits[1]).toBeLessThan(200);
  });

  it("gives up after its retries, with the store's last error", async () => {
    const r = new Requests({ retries: 2, ...noSleep });
    let calls = 0;
    await expect(
      r.run(async () => {
        calls++;
        throw new StoreError('server', 'InternalError', 500);
      }),
    ).rejects.toMatchObject({ kind: 'server' });
    expect(calls).toBe(3);
  });

  it('does not retry a refusal or a missing object', async () => {
    for (const kind of ['denied', 'no-key', 'no-bucket', 'unreachable'] as const) {
      const r = new Requests(noSleep);
      let calls = 0;
      await expect(
        r.run(async () => {
          calls++;
          throw new StoreError(kind, kind);
        }),
      ).rejects.toMatchObject({ kind });
      expect(calls).toBe(1);
    }
  });

  it('times a request out, aborting it, and retries it', async () => {
    const r = new Requests({ timeoutMs: 20, retries: 1, ...noSleep });
    const aborted: boolean[] = [];
    await expect(
      r.run(
        (signal) =>
          new Promise((_, reject) =>
            signal.addEventListener('abort', () => {
              aborted.push(true);
              reject(new Error('aborted'));
            }),
          ),
      ),
    ).rejects.toMatchObject({ kind: 'timeout' });
    expect(aborted).toEqual([true, true]);
  });

  it('runs at most `concurrency` requests at once', async () => {
    const r = new Requests({ concurrency: 3 });
    let active = 0;
    let most = 0;
    await Promise.all(
      Array.from({ length: 20 }, () =>
        r.run(async () => {
          most = Math.max(most, ++active);
          await new Promise((res) => setTimeout(res, 2));
          active--;
        }),
      ),
    );
    expect(most).toBe(3);
    expect(r.stats.requests).toBe(20);
  });

  it('takes a network failure the SDK wraps as unreachable', async () => {
    const r = new Requests(noSleep);
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' });
    await expect(
      r.run(async () => {
        throw new Error('request failed', { cause: refused });
      }),
    ).rejects.toMatchObject({ kind: 'unreachable' });
  });
});

describe('optional clients', () => {
  it('says how to install a client that is not there', () => {
    expect(() => loadClient('@tritonc/no-such-client', 's3')).toThrow(MissingClientError);
    expect(() => loadClient('@tritonc/no-such-client', 's3')).toThrow(/npm install @tritonc\/no-such-client/);
  });
});
