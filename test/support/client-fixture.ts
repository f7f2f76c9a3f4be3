// The protocol fixture as the generated clients' tests serve it: models ready and explicitly loaded
// unless said otherwise, one fixture at a time per test file, stopped after each test (stopping a
// fixture twice is harmless: its stop() closes a closed server quietly).
import { afterEach } from 'vitest';
import { startProtocolFixture, type FixtureModel, type ProtocolFixture, type ProtocolFixtureOptions } from '../../fixtures/verify/protocol-fixture.js';

/** The example classifier's served config (model_repository/classifier), as the fixture holds it. */
export const CLASSIFIER = {
  name: 'classifier',
  max_batch_size: 32,
  input: [{ name: 'input', data_type: 'TYPE_FP32', dims: ['3', '224', '224'] }],
  output: [{ name: 'output', data_type: 'TYPE_FP32', dims: ['1000'] }],
};

/** A serve(models, options?) for this test file: each call starts a fixture, which the test's end stops. */
export function protocolFixtures(): (models: Record<string, Partial<FixtureModel>>, options?: Partial<ProtocolFixtureOptions>) => Promise<ProtocolFixture> {
  let fixture: ProtocolFixture | undefined;
  afterEach(async () => {
    await fixture?.stop();
    fixture = undefined;
  });
  return async (models, options = {}) => {
    const full = Object.fromEntries(Object.entries(models).map(([k, m]) => [k, { config: {}, ready: true, ...m }]));
    fixture = await startProtocolFixture({ models: full, explicit: true, ...options });
    return fixture;
  };
}
