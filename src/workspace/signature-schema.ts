// The shape of a model signature as tritonc keeps it outside the model file (the lock, lint's disk
// cache): what is read back from there is checked against it before anything uses it.
import { z } from 'zod';
import type { ModelSignature } from '../model-file/signature.js';

let schemas: { locked: z.ZodObject; full: z.ZodObject } | undefined;

/** Made on first use: most runs read neither a lock nor a cache. */
function made(): { locked: z.ZodObject; full: z.ZodObject } {
  if (schemas) return schemas;
  const tensor = z.strictObject({
    name: z.string(),
    notUtf8: z.string().optional(),
    kind: z.enum(['tensor', 'sequence', 'map', 'optional', 'sparse_tensor', 'opaque', 'unknown']),
    elemType: z.string().nullable(),
    tritonType: z.string().nullable(),
    shape: z.array(z.union([z.number(), z.string(), z.null()])).nullable(),
    typed: z.boolean().optional(),
    layout: z.string().optional(),
  });
  const locked = z.strictObject({
    format: z.enum(['onnx', 'openvino', 'torchscript', 'pt2', 'savedmodel']).optional(),
    irVersion: z.number(),
    opsets: z.array(z.strictObject({ domain: z.string(), version: z.number() })),
    inputs: z.array(tensor),
    outputs: z.array(tensor),
    initializers: z.strictObject({ count: z.number(), bytes: z.number(), externalBytes: z.number(), constantBytes: z.number() }),
    batchable: z.boolean(),
    overridableInitializers: z.array(tensor),
    weightsInline: z.boolean(),
    externalDataFiles: z.array(z.string()),
    forward: z.strictObject({ text: z.string(), returns: z.string(), outputCount: z.number().nullable() }).optional(),
    ioUnknown: z.string().optional(),
  });
  const full = locked.extend({
    path: z.string(),
    producer: z.strictObject({ name: z.string(), version: z.string() }),
    metadata: z.array(z.strictObject({ key: z.string(), value: z.string() })),
  });
  return (schemas = { locked, full });
}

/** The signature without the fields a lock leaves out (path, producer, metadata). */
export const lockedSignatureSchema = (): z.ZodObject => made().locked;

/** `value` when it is a whole signature, else undefined. */
export function asSignature(value: unknown): ModelSignature | undefined {
  const r = made().full.safeParse(value);
  return r.success ? (r.data as unknown as ModelSignature) : undefined;
}
