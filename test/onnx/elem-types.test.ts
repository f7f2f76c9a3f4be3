import pkg from 'onnx-proto';
import { describe, expect, it } from 'vitest';
import { ELEM_TYPES, elemBytes, elemTypeByCode, elemTypeByName } from '../../src/onnx/index.js';

const { onnx } = pkg;

describe('element type table', () => {
  it('covers TensorProto.DataType 0..26, indexed by code', () => {
    expect(ELEM_TYPES).toHaveLength(27);
    ELEM_TYPES.forEach((t, i) => expect(t.code).toBe(i));
  });

  it("agrees with onnx-proto's enum where it has one (0..16)", () => {
    const generated = onnx.TensorProto.DataType as unknown as Record<string, number>;
    for (const t of ELEM_TYPES.slice(0, 17)) expect(generated[t.name]).toBe(t.code);
  });

  it('has the names onnx.proto gives 17..26', () => {
    expect(ELEM_TYPES.slice(17).map((t) => t.name)).toEqual([
      'FLOAT8E4M3FN',
      'FLOAT8E4M3FNUZ',
      'FLOAT8E5M2',
      'FLOAT8E5M2FNUZ',
      'UINT4',
      'INT4',
      'FLOAT4E2M1',
      'FLOAT8E8M0',
      'UINT2',
      'INT2',
    ]);
  });

  it('maps to Triton types as the ONNX Runtime backend does (OnnxDataTypeToModelConfigDataType)', () => {
    const mapped = Object.fromEntries(ELEM_TYPES.filter((t) => t.tritonType !== null).map((t) => [t.name, t.tritonType]));
    expect(mapped).toEqual({
      FLOAT: 'TYPE_FP32',
      UINT8: 'TYPE_UINT8',
      INT8: 'TYPE_INT8',
      UINT16: 'TYPE_UINT16',
      INT16: 'TYPE_INT16',
      INT32: 'TYPE_INT32',
      INT64: 'TYPE_INT64',
      STRING: 'TYPE_STRING',
      BOOL: 'TYPE_BOOL',
      FLOAT16: 'TYPE_FP16',
      DOUBLE: 'TYPE_FP64',
      UINT32: 'TYPE_UINT32',
      UINT64: 'TYPE_UINT64',
      BFLOAT16: 'TYPE_BF16',
    });
  });

  it('sizes elements, packing sub-byte types', () => {
    const bytes = (name: string, n: number) => elemBytes(elemTypeByName(name)!, n);
    expect(bytes('FLOAT', 10)).toBe(40);
    expect(bytes('COMPLEX128', 2)).toBe(32);
    expect(bytes('BOOL', 3)).toBe(3);
    expect(bytes('INT4', 3)).toBe(2);
    expect(bytes('FLOAT4E2M1', 4)).toBe(2);
    expect(bytes('UINT2', 5)).toBe(2);
    expect(bytes('STRING', 5)).toBeNull();
    expect(bytes('UNDEFINED', 5)).toBeNull();
  });

  it('looks up by code and name', () => {
    expect(elemTypeByCode(16)?.name).toBe('BFLOAT16');
    expect(elemTypeByCode(27)).toBeUndefined();
    expect(elemTypeByCode(-1)).toBeUndefined();
    expect(elemTypeByCode(1.5)).toBeUndefined();
    expect(elemTypeByName('INT2')?.code).toBe(26);
    expect(elemTypeByName('float')).toBeUndefined();
  });
});
