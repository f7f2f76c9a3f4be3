// --input NAME=FILE (one tensor: .npy or .json) and --inputs FILE (all of them: .npz or .json) read
// into arrays named by input, each file bounded before it is read (read-file.ts).
import { extname, resolve } from 'node:path';
import { append } from '../../util/arrays.js';
import { escapeControl } from '../../util/terminal-text.js';
import { fileError, INPUT_LIMITS, type UserArray } from './user-arrays.js';
import { parseJsonText, tensorOfJson, tensorsOfJson } from './json-tensors.js';
import { isNpy, parseNpy } from './npy.js';
import { parseNpz } from './npz.js';
import { readInputFile } from './read-file.js';

export interface InputFiles {
  /** --input NAME=FILE, in the order given. */
  perInput?: { name: string; file: string }[];
  /** --inputs FILE: an .npz or a JSON object holding every input it names. */
  archive?: string;
}

const isZip = (b: Buffer): boolean => b.length >= 4 && b.readUInt32LE(0) === 0x04034b50;

/** The arrays the flags name, each with its input's name; paths relative to `cwd`, shown with `shown`. */
export function loadInputFiles(files: InputFiles, cwd: string, shown: (path: string) => string): UserArray[] {
  const out: UserArray[] = [];
  for (const { name, file } of files.perInput ?? []) {
    const path = resolve(cwd, file);
    const source = shown(path);
    const ext = extname(path).toLowerCase();
    if (ext === '.npz')
      throw fileError(source, `an .npz holds several arrays: give it with --inputs ${source}, or save input '${escapeControl(name)}' alone with np.save`);
    const bytes = readInputFile(path, source, ext === '.json' ? INPUT_LIMITS.jsonBytes : INPUT_LIMITS.fileBytes, 'an .npy or .json file');
    if (ext === '.json' || (ext !== '.npy' && !isNpy(bytes))) {
      if (ext !== '.json' && ext !== '') throw fileError(source, `--input takes an .npy (np.save) or a .json file; this is neither`);
      out.push({ ...tensorOfJson(parseJsonText(bytes, source), source, name), name });
    } else {
      out.push({ ...parseNpy(bytes, source), name });
    }
  }
  if (files.archive !== undefined) {
    const path = resolve(cwd, files.archive);
    const source = shown(path);
    const ext = extname(path).toLowerCase();
    const bytes = readInputFile(path, source, ext === '.json' ? INPUT_LIMITS.jsonBytes : INPUT_LIMITS.fileBytes, 'an .npz or .json file');
    if (ext === '.npz' || (ext !== '.json' && isZip(bytes))) append(out, parseNpz(bytes, source));
    else if (ext === '.json' || ext === '') append(out, tensorsOfJson(parseJsonText(bytes, source), source));
    else throw fileError(source, '--inputs takes an .npz (np.savez) or a .json file; this is neither');
  }
  const seen = new Map<string, string>();
  for (const a of out) {
    const before = seen.get(a.name!);
    if (before !== undefined) throw fileError(a.source, `input '${escapeControl(a.name!)}' is given twice (also by ${before}); give each input once`);
    seen.set(a.name!, a.source);
  }
  return out;
}
