// The order a libstdc++ std::unordered_map<std::string, T> yields its keys (which the ONNX Runtime
// backend's auto-complete follows) against the real libstdc++: a program compiled here with g++ emplaces
// the same names and prints them as it iterates. Key counts cross every growth of the table up to 300
// (13, 29, 59, 127, 257 buckets), names of every length modulo 8 and UTF-8 ones. Without g++ the
// comparison is skipped with one line; under CI=true it runs.
import { execFileSync, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { libstdcxxStringHash, libstdcxxUnorderedOrder } from '../../src/triton/libstdcxx-unordered-order.js';
import { seededRandom } from '../../src/util/seeded-random.js';
import { tempDir } from '../support/temp.js';

const haveGxx = spawnSync('g++', ['--version']).status === 0;
const runs = haveGxx || process.env.CI === 'true';
if (!runs) console.log('tritonc: the libstdc++ order test skipped: no g++ here');

const PROGRAM = String.raw`#include <iostream>
#include <string>
#include <unordered_map>
#include <functional>
int main() {
  std::string line;
  std::unordered_map<std::string, int> map;
  bool hashes = false;
  while (std::getline(std::cin, line)) {
    if (line == "#hashes") { hashes = true; continue; }
    if (hashes) { std::cout << std::hash<std::string>{}(line) << "\n"; continue; }
    if (line == "#end") {
      for (const auto& kv : map) std::cout << kv.first << "\n";
      std::cout << "#end\n";
      map = std::unordered_map<std::string, int>();
      continue;
    }
    map.emplace(line, 0);
  }
}
`;

function compile(): string {
  const dir = tempDir('tritonc-libstdcxx-');
  writeFileSync(join(dir, 'order.cc'), PROGRAM);
  execFileSync('g++', ['-O1', '-o', join(dir, 'order'), join(dir, 'order.cc')]);
  return join(dir, 'order');
}

function names(random: () => number, count: number): string[] {
  const alphabet = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_:./-';
  const seen = new Set<string>();
  while (seen.size < count) {
    const len = Math.floor(random() * 24);
    let name = '';
    for (let i = 0; i < len; i++) name += random() < 0.03 ? 'é' : alphabet[Math.floor(random() * alphabet.length)];
    seen.add(name);
  }
  return [...seen];
}

describe.runIf(runs)('libstdcxxUnorderedOrder against the real libstdc++', () => {
  const binary = runs && haveGxx ? compile() : '';

  it('hashes strings as std::hash<std::string>', () => {
    const inputs = names(seededRandom(7), 200).filter((n) => !n.startsWith('#'));
    const out = execFileSync(binary, { input: `#hashes\n${inputs.join('\n')}\n` })
      .toString('utf8')
      .trim()
      .split('\n');
    expect(inputs.map((n) => libstdcxxStringHash(new TextEncoder().encode(n)).toString())).toEqual(out);
  });

  it('iterates in the same order for every table size up to 300 keys', () => {
    const random = seededRandom(43);
    const sets: string[][] = [];
    for (const count of [1, 2, 3, 5, 12, 13, 14, 28, 29, 30, 58, 59, 60, 100, 126, 127, 128, 256, 257, 258, 300])
      sets.push(names(random, count).filter((n) => !n.startsWith('#')));
    // Triton's qa names: INPUT0..INPUTn and OUTPUT0..OUTPUTn.
    sets.push(
      Array.from({ length: 16 }, (_, i) => `INPUT${i}`),
      ['INPUT0', 'INPUT1'],
      ['OUTPUT0', 'OUTPUT1'],
    );
    const input = sets.map((s) => `${s.join('\n')}${s.length ? '\n' : ''}#end\n`).join('');
    const out = execFileSync(binary, { input, maxBuffer: 1 << 26 })
      .toString('utf8')
      .split('#end\n')
      .slice(0, -1);
    expect(out.length).toBe(sets.length);
    sets.forEach((set, k) => {
      const real = out[k]!.split('\n').slice(0, -1);
      expect(libstdcxxUnorderedOrder(set, (n) => n)).toEqual(real);
    });
  });
});
