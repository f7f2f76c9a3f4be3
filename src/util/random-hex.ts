// Random hex digits for names that need only differ from each other: the temporary file beside a
// file being written (created exclusively, so a clash fails rather than clobbers), a container's name.
// Not node:crypto, which costs some 7 ms to load.

/** `digits` random hex digits. */
export function randomHex(digits: number): string {
  let out = '';
  while (out.length < digits)
    out += Math.floor(Math.random() * 0x100000000)
      .toString(16)
      .padStart(8, '0');
  return out.slice(0, digits);
}
