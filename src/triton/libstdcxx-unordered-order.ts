// The order in which a libstdc++ `std::unordered_map<std::string, T>` (x86_64), default-constructed
// and filled by `emplace` of distinct keys, yields its keys. Triton's ONNX Runtime backend fills its
// auto-completed inputs and outputs by iterating such a map (onnxruntime_backend r24.10
// src/onnxruntime_utils.h `OnnxTensorInfoMap`, filled in model order by `InputOutputInfos`, read by
// `ModelState::AutoCompleteIO`), so the server lists them in this order, not the model's. Written from
// libstdc++'s algorithm (GCC 11-13 agree): libsupc++/hash_bytes.cc `_Hash_bytes` with the seed
// 0xc70f6907 (bits/functional_hash.h), src/c++11/hashtable_c++0x.cc `_Prime_rehash_policy`, and
// bits/hashtable.h `_M_insert_bucket_begin` / `_M_rehash_aux`. test/triton/libstdcxx-unordered-order
// holds it equal to a program compiled here against the machine's libstdc++.

const MASK = (1n << 64n) - 1n;
const MUL = (0xc6a4a793n << 32n) + 0x5bd1e995n;
const SEED = 0xc70f6907n;

const shiftMix = (v: bigint): bigint => v ^ (v >> 47n);
const mul64 = (a: bigint, b: bigint): bigint => (a * b) & MASK;

/** `std::hash<std::string>` of these bytes: `_Hash_bytes(data, len, 0xc70f6907)` for a 64-bit size_t. */
export function libstdcxxStringHash(bytes: Uint8Array): bigint {
  const len = bytes.length;
  const aligned = len & ~7;
  let hash = SEED ^ mul64(BigInt(len), MUL);
  for (let p = 0; p < aligned; p += 8) {
    let word = 0n;
    for (let i = 7; i >= 0; i--) word = (word << 8n) | BigInt(bytes[p + i]!);
    const data = mul64(shiftMix(mul64(word, MUL)), MUL);
    hash = mul64(hash ^ data, MUL);
  }
  if (len & 7) {
    let tail = 0n;
    for (let i = len - 1; i >= aligned; i--) tail = (tail << 8n) | BigInt(bytes[i]!);
    hash = mul64(hash ^ tail, MUL);
  }
  hash = mul64(shiftMix(hash), MUL);
  return shiftMix(hash);
}

// _Prime_rehash_policy::_M_next_bkt: small requests from __fast_bkt, larger ones the first entry of
// libstdc++'s sparse __prime_list (src/shared/hashtable-aux.cc) not below the request, searched from
// its seventh entry. The list is cut where a model's tensor count could never reach.
const FAST_BUCKETS = [2, 2, 2, 3, 5, 5, 7, 7, 11, 11, 11, 11, 13, 13];
const PRIME_LIST = [
  2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67, 71, 73, 79, 83, 89, 97, 103, 109, 113, 127, 137, 139, 149, 157, 167, 179, 193, 199,
  211, 227, 241, 257, 277, 293, 313, 337, 359, 383, 409, 439, 467, 503, 541, 577, 619, 661, 709, 761, 823, 887, 953, 1031, 1109, 1193, 1289, 1381, 1493, 1613,
  1741, 1879, 2029, 2179, 2357, 2549, 2753, 2971, 3209, 3469, 3739, 4027, 4349, 4703, 5087, 5503, 5953, 6427, 6949, 7517, 8123, 8783, 9497, 10273, 11113, 12011,
  12983, 14033, 15173, 16411, 17749, 19183, 20753, 22447, 24281, 26267, 28411, 30727, 33223, 35933, 38873, 42043, 45481, 49201, 53201, 57557, 62233, 67307,
  72817, 78779, 85229, 92203, 99733, 107897, 116731, 126271, 136607, 147793, 159871, 172933, 187091, 202409, 218971, 236897, 256279, 277261, 299951, 324503,
  351061, 379787, 410857, 444487, 480881, 520241, 562841, 608903, 658753, 712697, 771049, 834181, 902483, 976369, 1056323,
];
/** The most keys whose order this module knows (the last bucket count of the list above). */
export const LIBSTDCXX_ORDER_LIMIT = PRIME_LIST.at(-1)!;

/** The bucket count for a request, and the element count that triggers the next growth. */
function nextBuckets(n: number): { buckets: number; nextResize: number } {
  if (n < FAST_BUCKETS.length) {
    const buckets = n === 0 ? 1 : FAST_BUCKETS[n]!;
    return { buckets, nextResize: n === 0 ? 0 : buckets };
  }
  let lo = 6;
  let hi = PRIME_LIST.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (PRIME_LIST[mid]! < n) lo = mid + 1;
    else hi = mid;
  }
  return { buckets: PRIME_LIST[lo]!, nextResize: PRIME_LIST[lo]! };
}

/**
 * The items in the order the map iterates their keys after each was emplaced in the order given (an
 * emplace of a key already there does nothing: the first item of a key stays, the others are dropped);
 * undefined past LIBSTDCXX_ORDER_LIMIT keys.
 */
export function libstdcxxUnorderedOrder<T>(all: readonly T[], key: (item: T) => string): T[] | undefined {
  const seen = new Set<string>();
  const items = all.filter((item) => !seen.has(key(item)) && seen.add(key(item)));
  if (items.length > LIBSTDCXX_ORDER_LIMIT) return undefined;
  const encoder = new TextEncoder();
  const hashes = items.map((item) => libstdcxxStringHash(encoder.encode(key(item))));
  // A singly linked list through `next` (-1 ends it), headed by `head`; bucket b's entry is the node
  // before its first node (BEFORE for the list head), as libstdc++ keeps `_M_buckets`.
  const BEFORE = -2;
  const EMPTY = -3;
  const next: number[] = [];
  let head = -1;
  let bucketCount = 1;
  let nextResize = 0;
  let buckets: number[] = [EMPTY];
  const bucketOf = (node: number): number => Number(hashes[node]! % BigInt(bucketCount));
  const after = (before: number): number => (before === BEFORE ? head : next[before]!);
  const setAfter = (before: number, node: number): void => {
    if (before === BEFORE) head = node;
    else next[before] = node;
  };

  const rehash = (count: number): void => {
    bucketCount = count;
    buckets = new Array<number>(count).fill(EMPTY);
    let node = head;
    head = -1;
    let beginBucket = 0;
    while (node !== -1) {
      const following = next[node]!;
      const b = bucketOf(node);
      if (buckets[b] === EMPTY) {
        next[node] = head;
        head = node;
        buckets[b] = BEFORE;
        if (next[node] !== -1) buckets[beginBucket] = node;
        beginBucket = b;
      } else {
        const before = buckets[b]!;
        next[node] = after(before);
        setAfter(before, node);
      }
      node = following;
    }
  };

  for (let node = 0; node < items.length; node++) {
    // _M_need_rehash(bucket count, element count, 1).
    const elements = node;
    if (elements + 1 > nextResize) {
      const minBuckets = Math.max(elements + 1, nextResize ? 0 : 11);
      if (minBuckets >= bucketCount) {
        const grown = nextBuckets(Math.max(minBuckets + 1, bucketCount * 2));
        nextResize = grown.nextResize;
        rehash(grown.buckets);
      } else {
        nextResize = bucketCount;
      }
    }
    // _M_insert_bucket_begin.
    const b = bucketOf(node);
    const before = buckets[b]!;
    if (before !== EMPTY) {
      next[node] = after(before);
      setAfter(before, node);
    } else {
      next[node] = head;
      head = node;
      if (next[node] !== -1) buckets[bucketOf(next[node]!)] = node;
      buckets[b] = BEFORE;
    }
  }

  const order: T[] = [];
  for (let node = head; node !== -1; node = next[node]!) order.push(items[node]!);
  return order;
}
