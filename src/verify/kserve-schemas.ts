// The JSON answers of the KServe v2 protocol (kserve open-inference-protocol, "required_api") and of
// Triton's extensions verify uses (model repository, model configuration), as zod schemas: a server's
// answer is data from the network, and verify reads no field it has not checked.
import { z } from 'zod';

/** Every failed request: `{"error": "<message>"}`. */
export const errorBody = z.object({ error: z.string() });

/** GET v2 */
export const serverMetadata = z.object({
  name: z.string(),
  version: z.string(),
  extensions: z.array(z.string()).default([]),
});
export type ServerMetadata = z.infer<typeof serverMetadata>;

const tensorMetadata = z.object({
  name: z.string(),
  datatype: z.string(),
  shape: z.array(z.number().int()),
});

/** GET v2/models/<name>[/versions/<v>] */
export const modelMetadata = z.object({
  name: z.string(),
  versions: z.array(z.string()).optional(),
  platform: z.string(),
  inputs: z.array(tensorMetadata),
  outputs: z.array(tensorMetadata),
});
export type ModelMetadata = z.infer<typeof modelMetadata>;

/** An int64 as Triton or protobuf's JSON writes it: a number, or a string of digits. */
const int64 = z.union([z.number().int(), z.string().regex(/^-?\d+$/)]);

const configTensor = z.looseObject({
  name: z.string(),
  data_type: z.string(),
  dims: z.array(int64).default([]),
  reshape: z.looseObject({ shape: z.array(int64).default([]) }).optional(),
  optional: z.boolean().optional(),
});

/**
 * GET v2/models/<name>/config: protobuf JSON of inference.ModelConfig. Only the fields verify computes
 * with are checked strictly; the rest pass through to the field-level diff.
 */
export const modelConfig = z.looseObject({
  name: z.string(),
  max_batch_size: z.number().int().nonnegative().default(0),
  input: z.array(configTensor).default([]),
  output: z.array(configTensor).default([]),
});
export type EffectiveConfig = z.infer<typeof modelConfig>;

/** POST v2/repository/index */
export const repositoryIndex = z.array(
  z.object({
    name: z.string(),
    version: z.string().optional(),
    state: z.string().optional(),
    reason: z.string().optional(),
  }),
);
export type RepositoryIndex = z.infer<typeof repositoryIndex>;

/** POST v2/models/<name>/infer (the JSON part when the binary data extension is used). */
export const inferResponse = z.object({
  model_name: z.string(),
  model_version: z.string().optional(),
  id: z.string().optional(),
  parameters: z.record(z.string(), z.unknown()).optional(),
  outputs: z.array(
    z.object({
      name: z.string(),
      shape: z.array(z.number().int().nonnegative()),
      datatype: z.string(),
      parameters: z.looseObject({ binary_data_size: z.number().int().nonnegative().optional() }).optional(),
      data: z.array(z.unknown()).optional(),
    }),
  ),
});
export type InferResponse = z.infer<typeof inferResponse>;

/** "outputs.0.shape: Invalid input: expected array, received string" — the first few issues, readable. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((i) => `${i.path.length ? `${i.path.join('.')}: ` : ''}${i.message}`)
    .join('; ');
}
