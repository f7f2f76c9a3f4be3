import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CORE_RULES, RULES } from '../../src/lint/rules/index.js';
import {
  SettingsError,
  findSettingsFile,
  loadSettingsFile,
  parseGpuMemoryFlag,
  parseRuleFlag,
  parseSettings,
  settingsJsonSchema,
} from '../../src/lint/settings.js';
import { formatBytes, formatMicroseconds, parseMicroseconds, parseSize } from '../../src/lint/units.js';
import { writeRepo } from './harness.js';

const SCHEMA_FILE = fileURLToPath(new URL('../../schemas/tritonc.schema.json', import.meta.url));
const parse = (json: unknown) => parseSettings(json, 'tritonc.config.json', RULES);
const problem = (json: unknown): string => {
  try {
    parse(json);
  } catch (e) {
    expect(e).toBeInstanceOf(SettingsError);
    return (e as Error).message;
  }
  throw new Error('expected a SettingsError');
};

describe('settings', () => {
  it('reports every problem of a settings file, each with its JSON path', () => {
    expect(
      problem({
        gpu: { preset: 'A99', count: -1 },
        latencyBudget: 'fast',
        rules: { 'queue-delay': 'loud', nope: 'off', 'io-name': ['error', { x: 1 }] },
      }).split('\n'),
    ).toEqual([
      'tritonc.config.json: 6 problems:',
      "  rules.io-name[1]: rule 'io-name' has no options",
      '  rules.queue-delay: expected one of "off", "info", "warn", "error", or [level, { options }]; got "loud"',
      "  rules.nope: unknown rule 'nope'",
      '  gpu.preset: Invalid option: expected one of "T4"|"A10G"|"L4"|"L40S"|"A100-40GB"|"A100-80GB"|"H100-80GB"|"H200"',
      '  gpu.count: Too small: expected number to be >=0',
      '  latencyBudget: expected a duration such as "5ms", "500us" or a number of microseconds',
    ]);
  });

  it('reads levels, options, the GPU budget (size or preset), GPU count and latency budget', () => {
    const s = parse({
      rules: { 'queue-delay': ['warn', { threshold: '5ms' }], 'fp16-accuracy': 'off', 'io-shape': ['error'] },
      gpu: { preset: 'A10G', count: 2 },
      latencyBudget: '100ms',
    });
    expect(s.rules).toEqual({
      'queue-delay': { level: 'warning', options: { threshold: '5ms' } },
      'fp16-accuracy': { level: 'off' },
      'io-shape': { level: 'error' },
    });
    expect(s.gpu).toEqual({ memoryBytes: 23028 * 1024 ** 2, memorySource: 'A10G', count: 2, countSource: 'gpu.count' });
    expect(s.latencyBudgetUs).toBe(100_000);
    expect(parse({ gpu: { memory: '24GiB', preset: 'T4' } }).gpu.memoryBytes).toBe(24 * 1024 ** 3);
    expect(parse({}).gpu).toEqual({ memoryBytes: undefined, memorySource: undefined, count: 1 });
  });

  it('says which key is wrong, and what was meant', () => {
    expect(problem({ gpuMemory: '24GiB' })).toBe("tritonc.config.json: gpuMemory: unknown key 'gpuMemory'");
    expect(problem({ gpu: { memroy: '24GiB' } })).toBe("tritonc.config.json: gpu.memroy: unknown key 'memroy' (did you mean 'memory'?)");
    expect(problem({ gpu: { memory: 'lots' } })).toBe('tritonc.config.json: gpu.memory: expected a size such as "24GiB", "80GB" or a number of bytes');
    expect(problem({ gpu: { preset: 'A100' } })).toMatch(/^tritonc.config.json: gpu.preset: /);
    expect(problem({ rules: { 'queue-dealy': 'warn' } })).toBe(
      "tritonc.config.json: rules.queue-dealy: unknown rule 'queue-dealy' (did you mean 'queue-delay'?)",
    );
    expect(problem({ rules: { 'queue-delay': 'warning' } })).toBe(
      'tritonc.config.json: rules.queue-delay: expected one of "off", "info", "warn", "error", or [level, { options }]; got "warning"',
    );
    expect(problem({ rules: { 'queue-delay': ['warn', { treshold: '5ms' }] } })).toBe(
      "tritonc.config.json: rules.queue-delay[1].treshold: unknown option 'treshold' (did you mean 'threshold'?)",
    );
    expect(problem({ rules: { 'queue-delay': ['warn', { threshold: 'soon' }] } })).toMatch(
      /^tritonc.config.json: rules.queue-delay\[1\].threshold: expected a duration/,
    );
    expect(problem({ rules: { 'io-shape': ['warn', { x: 1 }] } })).toBe("tritonc.config.json: rules.io-shape[1]: rule 'io-shape' has no options");
    expect(problem({ rules: { syntax: 'off' } })).toMatch(/rules.syntax: unknown rule 'syntax'/);
    expect(problem({ latencyBudget: '1 fortnight' })).toMatch(/^tritonc.config.json: latencyBudget: expected a duration/);
  });

  it('reports JSON syntax errors with line and column', async () => {
    const dir = await writeRepo({ 'tritonc.config.json': '{\n  "gpu": { "count": 2, }\n}\n' });
    expect(() => loadSettingsFile(join(dir, 'tritonc.config.json'), RULES)).toThrow(/tritonc.config.json: not valid JSON: line 2, column \d+/);
  });

  it('is found by walking up from a file or directory', async () => {
    const dir = await writeRepo({ 'tritonc.config.json': '{}', 'repo/m/config.pbtxt': '' });
    expect(findSettingsFile(join(dir, 'repo/m/config.pbtxt'))).toBe(join(dir, 'tritonc.config.json'));
    expect(findSettingsFile(join(dir, 'repo'))).toBe(join(dir, 'tritonc.config.json'));
  });

  it('--rule and --gpu-memory flags', () => {
    expect(parseRuleFlag('queue-delay=off', RULES)).toEqual({ id: 'queue-delay', level: 'off' });
    expect(parseRuleFlag('io-shape=warn', RULES)).toEqual({ id: 'io-shape', level: 'warning' });
    expect(() => parseRuleFlag('io-shap=warn', RULES)).toThrow("--rule io-shap=warn: unknown rule 'io-shap' (did you mean 'io-shape'?)");
    expect(() => parseRuleFlag('io-shape=loud', RULES)).toThrow('level must be one of off, info, warn, error');
    expect(() => parseRuleFlag('io-shape', RULES)).toThrow('expected id=level');
    expect(parseGpuMemoryFlag('h100-80gb')).toEqual({ bytes: 81559 * 1024 ** 2, source: 'H100-80GB' });
    expect(parseGpuMemoryFlag('80GB')).toEqual({ bytes: 80e9, source: '80GB' });
    expect(parseGpuMemoryFlag('lots')).toBeUndefined();
  });

  it('units', () => {
    expect([parseSize('24GiB'), parseSize('16 GB'), parseSize('512m'), parseSize(1024), parseSize('x')]).toEqual([
      24 * 1024 ** 3,
      16e9,
      512 * 1024 ** 2,
      1024,
      undefined,
    ]);
    expect([
      parseMicroseconds('5ms'),
      parseMicroseconds('500us'),
      parseMicroseconds('0.1s'),
      parseMicroseconds(250),
      parseMicroseconds('5 min'),
      parseMicroseconds('5 h'),
      parseMicroseconds('5'),
    ]).toEqual([5000, 500, 100_000, 250, 300_000_000, undefined, 5]);
    expect([formatBytes(25769803776), formatBytes(1536), formatBytes(100)]).toEqual(['24 GiB', '1.5 KiB', '100 B']);
    expect([formatMicroseconds(50000), formatMicroseconds(2500), formatMicroseconds(800)]).toEqual(['50 ms', '2.5 ms', '800 us']);
  });

  it('schemas/tritonc.schema.json is the JSON Schema of these settings (UPDATE_SCHEMA=1 rewrites it)', () => {
    const generated = `${JSON.stringify(settingsJsonSchema(RULES), null, 2)}\n`;
    if (process.env.UPDATE_SCHEMA) writeFileSync(SCHEMA_FILE, generated);
    expect(readFileSync(SCHEMA_FILE, 'utf8'), 'schemas/tritonc.schema.json is stale: run UPDATE_SCHEMA=1 npx vitest run test/lint/settings.test.ts').toBe(
      generated,
    );
  });

  it('registers every core rule once, with a quoted Triton message', () => {
    for (const rule of CORE_RULES) {
      expect(
        RULES.filter((r) => r.meta.id === rule.meta.id),
        rule.meta.id,
      ).toHaveLength(1);
      expect(rule.meta.prevents.length, rule.meta.id).toBeGreaterThan(0);
    }
  });

  it('every rule has a docs page that quotes the Triton messages it prevents', () => {
    for (const rule of RULES) {
      const page = readFileSync(fileURLToPath(new URL(`../../docs/rules/${rule.meta.id}.md`, import.meta.url)), 'utf8');
      expect(page, rule.meta.id).toMatch(new RegExp(`^# ${rule.meta.id}\\b`));
      for (const message of rule.meta.prevents) expect(page, `${rule.meta.id} docs quote: ${message}`).toContain(message);
    }
  });
});
