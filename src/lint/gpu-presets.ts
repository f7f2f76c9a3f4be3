// GPU memory presets: the total memory nvidia-smi reports for each GPU (MiB), so a budget matches
// what the device really has rather than the marketing figure (a "16 GB" T4 shows 15360 MiB).
const MiB = 1024 ** 2;

export const GPU_PRESETS = {
  T4: 15360 * MiB,
  A10G: 23028 * MiB,
  L4: 23034 * MiB,
  L40S: 46068 * MiB,
  'A100-40GB': 40960 * MiB,
  'A100-80GB': 81920 * MiB,
  'H100-80GB': 81559 * MiB,
  H200: 143771 * MiB,
} as const;

export type GpuPreset = keyof typeof GPU_PRESETS;

export const GPU_PRESET_NAMES = Object.keys(GPU_PRESETS) as GpuPreset[];

/** The preset for a name, ignoring case ("a10g", "h100-80gb"). */
export function gpuPreset(name: string): GpuPreset | undefined {
  return GPU_PRESET_NAMES.find((p) => p.toLowerCase() === name.trim().toLowerCase());
}
