// The execution accelerators the ONNX Runtime backend knows, by the names config.pbtxt gives them
// (onnxruntime_backend src/onnxruntime.cc ModelState::LoadModel: "tensorrt" and "cuda" in
// gpu_execution_accelerator, "openvino" in cpu_execution_accelerator; any other name fails the load).
export const ORT_ACCELERATORS = { tensorrt: 'tensorrt', cuda: 'cuda', openvino: 'openvino' } as const;
