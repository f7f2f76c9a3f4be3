// Every manifest tritonc's tests and docs read as a deployment is valid Kubernetes, checked against
// the API's schema by a maintained model library (test/support/kubernetes-schema.ts): the rule pages'
// examples and the manifests the rule tests build. A mistake tritonc finds must be in a manifest the
// API server would accept, or the finding tells the user nothing the server would not.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { parseExamples, readPage } from '../support/rule-examples.js';
import { haveKserveCrds, kubernetesSchemaErrors } from '../support/kubernetes-schema.js';
import { pod } from '../rules/deployment-support.js';

const DOCS = fileURLToPath(new URL('../../docs/rules/', import.meta.url));
const isKserve = (doc: unknown) =>
  typeof (doc as { apiVersion?: unknown })?.apiVersion === 'string' && (doc as { apiVersion: string }).apiVersion.startsWith('serving.kserve.io/');

/** The YAML documents of a manifest text, those the schema checks here can judge (KServe's where its CRDs are laid out). */
const checkable = (text: string): unknown[] =>
  parseAllDocuments(text)
    .map((d) => d.toJS() as unknown)
    .filter((d) => !isKserve(d) || haveKserveCrds());

describe('the manifests tests and docs read are valid Kubernetes', () => {
  it("the rule pages' deployment examples", () => {
    let checked = 0;
    for (const page of readdirSync(DOCS).filter((f) => f.endsWith('.md'))) {
      for (const ex of parseExamples(readPage(join(DOCS, page)))) {
        if (!ex.deployment || ex.deployment.manifest.endsWith('.json')) continue;
        for (const doc of checkable(ex.files[ex.deployment.manifest] as string)) {
          expect(kubernetesSchemaErrors(doc), `${page} "${ex.title}"`).toEqual([]);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(10);
  });

  it('the Pods the rule tests build', () => {
    for (const shape of [{}, { image: null }, { args: ['--model-control-mode', 'POLL'] }, { resources: 'limits:\n  memory: 1Gi\n  nvidia.com/gpu: 1' }])
      for (const doc of checkable(pod(shape))) expect(kubernetesSchemaErrors(doc), JSON.stringify(shape)).toEqual([]);
  });

  it('the checker is no stand-in: a Pod the rules would read, misspelled, is refused', () => {
    const [doc] = checkable(pod().replace('containers:', 'containres:'));
    expect(kubernetesSchemaErrors(doc).join('\n')).toMatch(/containres|containers/);
  });
});
